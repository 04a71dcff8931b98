/**
 * The key-encryption keys checked against what is stored (#29, "secrets fail silently"): an instance with
 * another SEARCHMUX_SECRET_KEY used to start healthy and read every tenant's key as missing. Each key
 * version's check value is sealed by the first instance with it; another key of that version, one that
 * cannot open a stored key of its version, and a keyring lacking a version stored keys use are each named,
 * in one log line per process that never holds a key.
 */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { keyChecks, providerKeys } from "@/lib/db/schema";
import { createLogger, log, replaceLogger } from "@/lib/observability/logger";
import type { Platform } from "@/lib/pipeline/context";
import { keyringVerdict } from "@/lib/pipeline/keys/key-check";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { resolveProviderKeys } from "@/lib/pipeline/providers/resolve-keys";
import { rotateKeys } from "@/lib/services/keys/rotate-keys";
import { setKey } from "@/lib/services/keys/set-key";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const key = (version: number) => `${version}:${randomBytes(32).toString("base64")}`;

/** Error lines the process logger writes, captured. */
function captureErrors(): string[] {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).trim().split("\n")) {
        const entry = JSON.parse(line) as { level: number; msg: string };
        if (entry.level >= 50) lines.push(entry.msg);
      }
      done();
    },
  });
  replaceLogger(createLogger(sink, "info"));
  return lines;
}

describe.each(databaseTargets())("keyringVerdict on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  const original = log();
  let errors: string[];

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db);
  });
  afterAll(async () => {
    replaceLogger(original);
    await t?.cleanup();
  });
  beforeEach(async () => {
    errors = captureErrors();
    await t.db.withSystem(async (tx) => {
      await tx.delete(keyChecks);
      await tx.delete(providerKeys);
    });
  });

  /** Stores a provider key of a new workspace under `keyring`: what an instance with it writes. */
  async function storeKey(keyring: string, apiKey = `tvly-${randomBytes(8).toString("hex")}`) {
    const p = { ...platform, keyring: parseKeyring(keyring) };
    const tenant = await createTenant({ ctx: systemCtx(p), input: { name: "kc" } });
    await setKey({ ctx: tenantCtx(p, tenant.id), input: { provider: "tavily", key: apiKey } });
    return { tenantId: tenant.id, apiKey };
  }
  const checkedVersions = async () =>
    (await t.db.withSystem((tx) => tx.select().from(keyChecks))).map((row) => row.keyVersion).sort();

  it("seals a check value per version on first use, and the same keys pass again", async () => {
    const keys = `${key(2)},${key(1)}`;
    expect(await keyringVerdict(t.db, parseKeyring(keys))).toEqual({ ok: true });
    expect(await checkedVersions()).toEqual([1, 2]);
    // Another process (another keyring object) with the same value: ok, nothing rewritten.
    const before = await t.db.withSystem((tx) => tx.select().from(keyChecks));
    expect(await keyringVerdict(t.db, parseKeyring(keys))).toEqual({ ok: true });
    expect(await t.db.withSystem((tx) => tx.select().from(keyChecks))).toEqual(before);
    expect(errors).toEqual([]);
  });

  it("names another key of a version already checked, in one log line without the key", async () => {
    const right = key(1);
    expect(await keyringVerdict(t.db, parseKeyring(right))).toEqual({ ok: true });
    const wrong = key(1);
    const keyring = parseKeyring(wrong);
    const verdict = await keyringVerdict(t.db, keyring);
    expect(verdict).toEqual({
      ok: false,
      problem: expect.stringMatching(
        /^SEARCHMUX_SECRET_KEY's key of version 1 is not the key that data stored under version 1 was encrypted with/,
      ),
    });
    // Reached once per process: asking again neither checks nor logs again.
    expect(await keyringVerdict(t.db, keyring)).toBe(verdict);
    await Promise.resolve();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBe(verdict.ok ? "" : verdict.problem);
    for (const secret of [right, wrong]) expect(errors[0]).not.toContain(secret.slice(2, 12));
    // The right key's check value stays: the wrong key overwrote nothing.
    expect(await keyringVerdict(t.db, parseKeyring(right))).toEqual({ ok: true });
  });

  it("checks a deployment older than the check values against a stored key before sealing one", async () => {
    const right = key(1);
    const stored = await storeKey(right);
    await t.db.withSystem((tx) => tx.delete(keyChecks));

    const wrong = await keyringVerdict(t.db, parseKeyring(key(1)));
    expect(wrong).toMatchObject({
      ok: false,
      problem: expect.stringContaining("key of version 1 is not the key"),
    });
    expect(await checkedVersions()).toEqual([]);

    expect(await keyringVerdict(t.db, parseKeyring(right))).toEqual({ ok: true });
    expect(await checkedVersions()).toEqual([1]);
    const keys = await resolveProviderKeys(
      tenantCtx({ ...platform, keyring: parseKeyring(right) }, stored.tenantId),
      ["tavily"],
    );
    expect(keys.get("tavily")?.apiKey).toBe(stored.apiKey);
  });

  it("names a version stored keys use that the keyring lacks, not how many there are", async () => {
    const v1 = key(1);
    await storeKey(v1);
    await storeKey(v1);
    const verdict = await keyringVerdict(t.db, parseKeyring(key(2)));
    expect(verdict).toEqual({
      ok: false,
      problem: expect.stringContaining(
        "SEARCHMUX_SECRET_KEY lacks version 1, which stored provider keys were encrypted with: add it back",
      ),
    });
  });

  it("follows a rotation: new version first, keys rotated, the old version dropped", async () => {
    const v1 = key(1);
    const v2 = key(2);
    await storeKey(v1);
    expect(await keyringVerdict(t.db, parseKeyring(v1))).toEqual({ ok: true });
    const both = { ...platform, keyring: parseKeyring(`${v2},${v1}`) };
    expect(await keyringVerdict(t.db, both.keyring)).toEqual({ ok: true });
    // Before the rotation the old version cannot go yet…
    expect(await keyringVerdict(t.db, parseKeyring(v2))).toMatchObject({ ok: false });
    await rotateKeys({ ctx: systemCtx(both) });
    // …after it, it can (its check value stays, unused).
    expect(await keyringVerdict(t.db, parseKeyring(v2))).toEqual({ ok: true });
    expect(await checkedVersions()).toEqual([1, 2]);
  });

  it("lets exactly one of two instances starting at once with different keys seal the version", async () => {
    const verdicts = await Promise.all([
      keyringVerdict(t.db, parseKeyring(key(1))),
      keyringVerdict(t.db, parseKeyring(key(1))),
    ]);
    expect(verdicts.filter((verdict) => verdict.ok)).toHaveLength(1);
    expect(await checkedVersions()).toEqual([1]);
  });
});
