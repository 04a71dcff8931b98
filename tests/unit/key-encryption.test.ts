import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { open, parseKeyring, seal } from "@/lib/pipeline/keys/key-encryption";

const keyring = parseKeyring(`1:${randomBytes(32).toString("base64")}`);
const binding = { tenantId: "00000000-0000-4000-8000-000000000001", provider: "brave", rowId: "row-1" };

describe("provider key envelope", () => {
  it("opens what it sealed, with a 16-byte tag", () => {
    const sealed = seal(keyring, "sk-secret", binding);
    expect(Buffer.from(sealed.tag, "base64")).toHaveLength(16);
    expect(open(keyring, sealed, binding)).toBe("sk-secret");
  });

  // GCM checks only as many tag bytes as it is given: a stored tag cut to 4 bytes is a forgery within
  // reach of 2^32 attempts, so a short tag must be refused even when its bytes are right.
  it.each([4, 8, 12, 15])("refuses a tag truncated to %i bytes", (bytes) => {
    const sealed = seal(keyring, "sk-secret", binding);
    const tag = Buffer.from(sealed.tag, "base64").subarray(0, bytes).toString("base64");
    expect(() => open(keyring, { ...sealed, tag }, binding)).toThrow(/tag must be 16 bytes/);
  });
});
