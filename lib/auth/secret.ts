import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "../config";

/**
 * AUTH_SECRET, or for zero-configuration local use a random secret generated once and kept in the
 * data directory. Several instances must share AUTH_SECRET explicitly.
 */
export function authSecret(): string {
  const { auth, dataDir } = config();
  if (auth.secret) return auth.secret;
  const file = path.join(dataDir, "auth-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim(); // another process wrote it first
    }
  }
}
