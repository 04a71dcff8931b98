/**
 * Whether this process's key-encryption keys (SEARCHMUX_SECRET_KEY) read what is stored. Each key version
 * has a check value in `key_checks`, sealed under it by the first instance that ran with it; a key of the
 * same version that cannot open it is another key, and so is one that cannot open a provider key stored
 * under its version before any check value existed (a deployment older than the table). Versions that
 * stored provider keys use and the keyring lacks are named too. Without this, such an instance started
 * healthy and read every tenant's key as missing.
 *
 * The verdict is reached once per process (at start, or by the first readiness check when the database
 * could not be reached then) and logged once when it finds a problem; a failure to reach the database is
 * no verdict and is tried again.
 */
import { desc, eq, notInArray } from "drizzle-orm";
import type { Database, Tx } from "@/lib/db";
import { keyChecks, providerKeys } from "@/lib/db/schema";
import { log } from "@/lib/observability/logger";
import type { Keyring } from "@/lib/pipeline/capabilities";
import { open, opensCheckValue, sealCheckValue, storedKeyBinding } from "./key-encryption";

export type KeyringVerdict = { ok: true } | { ok: false; problem: string };

const HOW_TO_FIX = "docs/deployment.md, “Key-encryption keys”";

/** Whether the keyring opens a provider key stored under `version`, if one is; true when none is. */
async function opensStoredKey(tx: Tx, keyring: Keyring, version: number): Promise<boolean> {
  const [row] = await tx.select().from(providerKeys).where(eq(providerKeys.keyVersion, version)).limit(1);
  if (!row) return true;
  try {
    open(keyring, row, storedKeyBinding(row));
    return true;
  } catch {
    return false;
  }
}

/** Checks the keyring against what is stored, sealing a check value for each version that has none yet. */
async function verify(tx: Tx, keyring: Keyring): Promise<KeyringVerdict> {
  const checked = new Set((await tx.select({ v: keyChecks.keyVersion }).from(keyChecks)).map(({ v }) => v));
  const wrong: number[] = [];
  for (const version of keyring.byVersion.keys()) {
    if (checked.has(version)) continue;
    if (!(await opensStoredKey(tx, keyring, version))) wrong.push(version);
    // Another instance may seal its own at the same moment: the first one stays, and is verified below.
    else await tx.insert(keyChecks).values(sealCheckValue(keyring, version)).onConflictDoNothing();
  }
  for (const check of await tx.select().from(keyChecks)) {
    if (keyring.byVersion.has(check.keyVersion) && !opensCheckValue(keyring, check))
      wrong.push(check.keyVersion);
  }
  // Only the versions: a count of stored keys would tell an unauthenticated caller of /api/ready something.
  const lacking = await tx
    .selectDistinct({ version: providerKeys.keyVersion })
    .from(providerKeys)
    .where(notInArray(providerKeys.keyVersion, [...keyring.byVersion.keys()]))
    .orderBy(desc(providerKeys.keyVersion));
  const problems = [
    ...[...new Set(wrong)].map(
      (version) =>
        `SEARCHMUX_SECRET_KEY's key of version ${version} is not the key that data stored under version ${version} ` +
        "was encrypted with, so stored provider keys cannot be read: give this instance the value every other " +
        "instance and the CLI use",
    ),
    ...lacking.map(
      ({ version }) =>
        `SEARCHMUX_SECRET_KEY lacks version ${version}, which stored provider keys were encrypted with: add it ` +
        "back after the newest key (and run `npm run smx -- keys rotate` before dropping it)",
    ),
  ];
  return problems.length === 0
    ? { ok: true }
    : { ok: false, problem: `${problems.join("; ")} (${HOW_TO_FIX})` };
}

// On globalThis: the start check (instrumentation) and the readiness route are separate bundles. Per
// database and keyring, so tests with their own of each get their own verdict.
const holder = globalThis as typeof globalThis & {
  searchmuxKeyringVerdicts?: WeakMap<Database, WeakMap<Keyring, Promise<KeyringVerdict>>>;
};
holder.searchmuxKeyringVerdicts ??= new WeakMap();
const verdicts = holder.searchmuxKeyringVerdicts;

/** The verdict on `keyring` over `db`, reached once (a problem logged once); a database error rejects and is retried. */
export function keyringVerdict(db: Database, keyring: Keyring): Promise<KeyringVerdict> {
  const byKeyring = verdicts.get(db) ?? new WeakMap<Keyring, Promise<KeyringVerdict>>();
  verdicts.set(db, byKeyring);
  const known = byKeyring.get(keyring);
  if (known) return known;
  const verdict = db.withSystem((tx) => verify(tx, keyring));
  byKeyring.set(keyring, verdict);
  verdict.then(
    (reached) => {
      if (!reached.ok) log().error(reached.problem);
    },
    () => byKeyring.delete(keyring),
  );
  return verdict;
}
