import { randomBytes } from "node:crypto";
import path from "node:path";
import { config } from "@/lib/config";
import { readOrCreateSecret } from "@/lib/secret-file.mjs";

let resolved: string | undefined;

/**
 * AUTH_SECRET, or for zero-configuration local use a random secret generated once and kept in the
 * data directory. Several instances must share AUTH_SECRET explicitly. Called when a request needs it,
 * never at import: `next build` imports the sign-in modules and must not write a secret into the build.
 */
export function authSecret(): string {
  const { auth, dataDir } = config();
  resolved ??=
    auth.secret ??
    readOrCreateSecret(path.join(dataDir, "auth-secret"), () => randomBytes(32).toString("base64url"));
  return resolved;
}
