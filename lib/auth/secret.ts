import { randomBytes } from "node:crypto";
import path from "node:path";
import { config } from "@/lib/config";
import { missingSecretMessage } from "@/lib/deploy-check";
import { readOrCreateSecret } from "@/lib/secret-file.mjs";

let resolved: string | undefined;

/**
 * AUTH_SECRET, or for zero-configuration local use a random secret generated once and kept in the
 * data directory. With a shared database there is no generating: another instance would not accept this
 * one's sessions (the start refuses that configuration already, lib/deploy-check.ts; this holds wherever
 * the check did not run). Called when a request needs it, never at import: `next build` imports the
 * sign-in modules and must not write a secret into the build.
 */
export function authSecret(): string {
  const { auth, dataDir, database } = config();
  if (!auth.secret && database.shared) throw new Error(missingSecretMessage("AUTH_SECRET", dataDir));
  resolved ??=
    auth.secret ??
    readOrCreateSecret(path.join(dataDir, "auth-secret"), () => randomBytes(32).toString("base64url"));
  return resolved;
}
