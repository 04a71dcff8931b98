/**
 * Envelope for provider keys at rest: AES-256-GCM under a key-encryption key (KEK) from
 * SEARCHMUX_SECRET_KEY, with AAD binding tenant + provider + row id so a ciphertext copied to another
 * row, tenant or provider fails to decrypt.
 *
 * SEARCHMUX_SECRET_KEY holds one or more versioned keys, newest first: `2:<base64>,1:<base64>` (a bare
 * `<base64>` is version 1). New secrets use the first; every listed version decrypts. Rotation: put the
 * new key in front, deploy, run `npm run smx -- keys rotate`, then drop the old one.
 * Without the variable (local use), a key is generated once under the data directory.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import path from "node:path";
import { secretKeyVersions } from "@/lib/config";
import type { Keyring } from "@/lib/pipeline/capabilities";
import { readOrCreateSecret } from "@/lib/secret-file.mjs";

export interface Sealed {
  ciphertext: string;
  iv: string;
  tag: string;
  keyVersion: number;
}

export interface KeyBinding {
  tenantId: string;
  provider: string;
  rowId: string;
  /**
   * The base URL stored with the key, for a provider the workspace configures itself (the workspace model):
   * the key opens only beside the base URL it was saved with, so a row changed to point the key at another
   * host (a write to the database without the key-encryption key) leaves it unreadable.
   */
  endpoint?: string;
}

/** A stored key's binding, from its row (provider_keys). */
export function storedKeyBinding(row: {
  tenantId: string;
  provider: string;
  id: string;
  settings?: unknown;
}): KeyBinding {
  const endpoint = (row.settings as { base_url?: unknown } | null | undefined)?.base_url;
  return {
    tenantId: row.tenantId,
    provider: row.provider,
    rowId: row.id,
    ...(typeof endpoint === "string" && { endpoint }),
  };
}

/** The keyring of a SEARCHMUX_SECRET_KEY value (lib/config.ts says what a valid one is). */
export function parseKeyring(value: string): Keyring {
  const versions = secretKeyVersions(value);
  return { current: versions[0], byVersion: new Map(versions.map(({ version, key }) => [version, key])) };
}

/** The configured keyring, or a generated local one kept in `dataDir/secret-key`. */
export function loadKeyring(env: Readonly<Record<string, string | undefined>>, dataDir: string): Keyring {
  const configured = env.SEARCHMUX_SECRET_KEY?.trim();
  if (configured) return parseKeyring(configured);
  return parseKeyring(
    readOrCreateSecret(path.join(dataDir, "secret-key"), () => `1:${randomBytes(32).toString("base64")}`),
  );
}

// The full 16-byte GCM tag, pinned on both sides: without the pin, Node accepts a tag of 4 to 16 bytes on
// decryption, and a 4-byte tag can be forged by trying 2^32 candidates.
const TAG_BYTES = 16;

const providerKeyAad = (b: KeyBinding) =>
  Buffer.from(
    `searchmux/provider-key/v1|${b.tenantId}|${b.provider}|${b.rowId}${b.endpoint === undefined ? "" : `|${b.endpoint}`}`,
  );
/** A webhook's signing secret: bound to its tenant and row, and never readable as a provider key (nor one as it). */
const webhookSecretAad = (b: Omit<KeyBinding, "provider">) =>
  Buffer.from(`searchmux/webhook-secret/v1|${b.tenantId}|${b.rowId}`);
/** A check value is bound to its version, and can never pass for a provider key (nor one for it). */
const checkValueAad = (version: number) => Buffer.from(`searchmux/key-check/v1|${version}`);
const CHECK_PLAINTEXT = "searchmux key check";

function sealUnder(key: Buffer, version: number, plaintext: string, aad: Buffer): Sealed {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return {
    ciphertext: ciphertext.toString("base64"),
    iv: iv.toString("base64"),
    tag: cipher.getAuthTag().toString("base64"),
    keyVersion: version,
  };
}

/** Throws when the KEK version is unknown or the ciphertext, tag or AAD do not match. */
function openWith(keyring: Keyring, sealed: Sealed, aad: Buffer): string {
  const key = keyring.byVersion.get(sealed.keyVersion);
  if (!key) throw new Error(`no key-encryption key of version ${sealed.keyVersion} is configured`);
  const tag = Buffer.from(sealed.tag, "base64");
  if (tag.length !== TAG_BYTES)
    throw new Error(`authentication tag must be ${TAG_BYTES} bytes, not ${tag.length}`);
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64"), {
    authTagLength: TAG_BYTES,
  });
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([
    decipher.update(Buffer.from(sealed.ciphertext, "base64")),
    decipher.final(),
  ]).toString("utf8");
}

export function seal(keyring: Keyring, plaintext: string, binding: KeyBinding): Sealed {
  const { key, version } = keyring.current;
  return sealUnder(key, version, plaintext, providerKeyAad(binding));
}

/** Throws when the KEK version is unknown or the ciphertext, tag or binding do not match. */
export function open(keyring: Keyring, sealed: Sealed, binding: KeyBinding): string {
  return openWith(keyring, sealed, providerKeyAad(binding));
}

/** Seals a webhook's signing secret (lib/services/webhooks) under the newest key-encryption key. */
export function sealWebhookSecret(
  keyring: Keyring,
  secret: string,
  binding: Omit<KeyBinding, "provider">,
): Sealed {
  const { key, version } = keyring.current;
  return sealUnder(key, version, secret, webhookSecretAad(binding));
}

/** Throws when the KEK version is unknown or the ciphertext, tag or binding do not match. */
export function openWebhookSecret(
  keyring: Keyring,
  sealed: Sealed,
  binding: Omit<KeyBinding, "provider">,
): string {
  return openWith(keyring, sealed, webhookSecretAad(binding));
}

/** The check value of the keyring's key of `version` (key-check.ts): a known text sealed under it. */
export function sealCheckValue(keyring: Keyring, version: number): Sealed {
  const key = keyring.byVersion.get(version);
  if (!key) throw new Error(`no key-encryption key of version ${version} is configured`);
  return sealUnder(key, version, CHECK_PLAINTEXT, checkValueAad(version));
}

/** Whether the keyring's key of the check value's version is the one that sealed it. */
export function opensCheckValue(keyring: Keyring, sealed: Sealed): boolean {
  try {
    return openWith(keyring, sealed, checkValueAad(sealed.keyVersion)) === CHECK_PLAINTEXT;
  } catch {
    return false;
  }
}
