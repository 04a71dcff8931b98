/**
 * Seeds one tenant (a new one, or rows into one that exists) in the data of a running e2e server (run with
 * tsx; SEARCHMUX_DATA_DIR points at the server's embedded database, which is shared through its server
 * process). Reads a SeedSpec as JSON from argv, prints a SeedResult as JSON. Calls the same verbs as the
 * operator CLI, plus revocation and expiry, which need the token id the CLI does not print, and the
 * invitation verbs.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { closeDatabase } from "@/lib/db";
import { type Actor, SCOPES } from "@/lib/pipeline/context";
import { systemContext, tenantContext } from "@/lib/pipeline/platform";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { setKey } from "@/lib/services/keys/set-key";
import { acceptInvitation } from "@/lib/services/members/accept-invitation";
import { inviteMember } from "@/lib/services/members/invite-member";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import type { SeedResult, SeedSpec } from "./seed-spec";

const operator: Actor = { kind: "operator" };

async function seed(spec: SeedSpec): Promise<SeedResult> {
  const tenantId =
    "tenantId" in spec
      ? spec.tenantId
      : (await createTenant({ ctx: await systemContext(operator), input: { name: spec.name } })).id;
  const ctx = await tenantContext(operator, tenantId, SCOPES, "cli");
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
  for (const key of spec.keys ?? []) await setKey({ ctx, input: key });
  for (const budget of spec.budgets ?? []) await setBudget({ ctx, input: budget });
  const invitations: Record<string, string> = {};
  for (const { email, role, userId } of spec.invitations ?? []) {
    const { secret } = await inviteMember({ ctx, input: { email, role } });
    if (userId) {
      const joining = await systemContext({ kind: "user", userId });
      await acceptInvitation({ ctx: joining, input: { secret, userId } });
    }
    invitations[email] = secret;
  }
  await sleep(Math.max(expiresLast - Date.now() + 100, 0));
  return { tenantId, tokens, invitations };
}

const spec = JSON.parse(process.argv[2] ?? "{}") as SeedSpec;
seed(spec)
  .then((result) => process.stdout.write(`${JSON.stringify(result)}\n`))
  .finally(closeDatabase)
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
