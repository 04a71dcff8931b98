import { describe, expect, it } from "vitest";
import {
  generateToken,
  hashToken,
  hasValidChecksum,
  TOKEN_LENGTH,
  tokenDisplay,
} from "@/lib/services/tokens/token-format";

describe("API token format", () => {
  it("generates smx_ tokens with a valid checksum and no repeats", () => {
    const tokens = Array.from({ length: 1000 }, generateToken);
    expect(new Set(tokens).size).toBe(1000);
    for (const token of tokens) {
      expect(token).toMatch(/^smx_[0-9A-Za-z]+$/);
      expect(token).toHaveLength(TOKEN_LENGTH);
      expect(hasValidChecksum(token)).toBe(true);
    }
  });

  it("carries at least 128 random bits", () => {
    // 32 base62 characters: log2(62^32) ≈ 190 bits.
    expect(32 * Math.log2(62)).toBeGreaterThan(128);
    const randomParts = new Set(Array.from({ length: 200 }, () => generateToken().slice(4, 36)));
    expect(randomParts.size).toBe(200);
  });

  it("rejects every single-character change, wrong prefixes and wrong lengths", () => {
    const token = generateToken();
    const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    for (let i = 4; i < token.length; i++) {
      const replacement = alphabet[(alphabet.indexOf(token.charAt(i)) + 1) % 62];
      expect(hasValidChecksum(token.slice(0, i) + replacement + token.slice(i + 1))).toBe(false);
    }
    expect(hasValidChecksum(`sk_${token.slice(4)}`)).toBe(false);
    expect(hasValidChecksum(token.slice(0, -1))).toBe(false);
    expect(hasValidChecksum(`${token}a`)).toBe(false);
    expect(hasValidChecksum("")).toBe(false);
  });

  it("stores only a SHA-256 hash and shows only the start and last 4", () => {
    const token = generateToken();
    expect(hashToken(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(token)).not.toContain(token.slice(4, 12));
    expect(tokenDisplay(token)).toEqual({ displayStart: token.slice(0, 8), last4: token.slice(-4) });
  });
});
