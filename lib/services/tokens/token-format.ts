/**
 * API/MCP token format: `smx_` + 32 random base62 characters (≈190 bits) + 6 base62 characters of
 * CRC-32 over the random part. The checksum lets a mistyped or forged token be rejected without a
 * database query; only the SHA-256 of the whole token is stored.
 */
import { createHash, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";

const PREFIX = "smx_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
export const TOKEN_LENGTH = PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;
const SHAPE = new RegExp(`^${PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, width: number): string {
  let out = "";
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = ALPHABET.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

const checksum = (random: string) => base62(crc32(random), CHECKSUM_LENGTH);

export function generateToken(): string {
  let random = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET.charAt(randomInt(62));
  return PREFIX + random + checksum(random);
}

/** True when the token has our shape and its checksum matches; no I/O. */
export function hasValidChecksum(token: string): boolean {
  if (!SHAPE.test(token)) return false;
  const random = token.slice(PREFIX.length, PREFIX.length + RANDOM_LENGTH);
  return token.slice(-CHECKSUM_LENGTH) === checksum(random);
}

export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** What the UI may show of a token. */
export function tokenDisplay(token: string) {
  return { displayStart: token.slice(0, PREFIX.length + 4), last4: token.slice(-4) };
}
