/**
 * Seeds one tenant in the data of a running e2e server (run with tsx; SEARCHMUX_DATA_DIR points at the
 * server's embedded database, which is shared through its server process). Reads a SeedSpec as JSON
 * from argv, prints a SeedResult as JSON. Calls the same verbs as the operator CLI, plus revocation and
 * expiry, which need the token id the CLI does not print.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { closeDatabase } from "@/lib/db";
import { type Actor, SCOPES } from "@/lib/pipeline/context";
import { systemContext, tenantContext } from "@/lib/pipeline/platform";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import type { SeedResult, SeedSpec } from "./seed-spec";

const operator: Actor = { kind: "operator" };

async function seed(spec: SeedSpec): Promise<SeedResult> {
  const tenant = await createTenant({ ctx: await systemContext(operator), input: { name: spec.name } });
  const ctx = await tenantContext(operator, tenant.id, SCOPES, "cli");
  const tokens: Record<string, string> = {};
  let expiresLast = 0;
  for (const wanted of spec.tokens) {
    const expiresAt =
      wanted.expiresInMs === undefined ? undefined : new Date(Date.now() + wanted.expiresInMs);
    const created = await createToken({
      ctx,
      input: { name: wanted.name, scopes: wanted.scopes, expiresAt },
    });
    if (wanted.revoked) await revokeToken({ ctx, input: { id: created.id } });
    expiresLast = Math.max(expiresLast, expiresAt?.getTime() ?? 0);
    tokens[wanted.name] = created.token;
  }
  for (const budget of spec.budgets ?? []) await setBudget({ ctx, input: budget });
  await sleep(Math.max(expiresLast - Date.now() + 100, 0));
  return { tenantId: tenant.id, tokens };
}

const spec = JSON.parse(process.argv[2] ?? "{}") as SeedSpec;
seed(spec)
  .then((result) => process.stdout.write(`${JSON.stringify(result)}\n`))
  .finally(closeDatabase)
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
