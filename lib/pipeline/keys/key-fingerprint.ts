/**
 * Which key a stored row holds, without holding it: HMAC-SHA256 of the key (and, for the workspace model, the
 * endpoint it was saved for) under a key derived from the current key-encryption key. Equal for the same key
 * stored again, so a refused key stored again and refused again is reported once (key.invalid,
 * drizzle/0021_webhook_fairness.sql); useless to anyone without SEARCHMUX_SECRET_KEY. A new key-encryption
 * key changes every fingerprint, which at worst reports a key once more.
 */
import { createHmac } from "node:crypto";
import type { Keyring } from "@/lib/pipeline/capabilities";

export function keyFingerprint(
  keyring: Keyring,
  binding: { tenantId: string; provider: string; endpoint?: string },
  key: string,
): string {
  const derived = createHmac("sha256", keyring.current.key).update("searchmux key fingerprint").digest();
  return createHmac("sha256", derived)
    .update(JSON.stringify([binding.tenantId, binding.provider, binding.endpoint ?? null, key]))
    .digest("base64url");
}
