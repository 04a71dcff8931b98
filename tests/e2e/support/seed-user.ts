/**
 * Creates a user in the running e2e server's data, as an OAuth sign-in would (the auth adapter, then the
 * personal workspace every first sign-in gets). Run with tsx; argv[2] is `{email, name}` as JSON; prints
 * `{userId, tenantId}`.
 */
import { closeDatabase, getDatabase } from "@/lib/db";
import { systemContext } from "@/lib/pipeline/platform";
import { drizzleAuthAdapter } from "@/lib/services/accounts/auth-adapter";
import { ensurePersonalTenant } from "@/lib/services/accounts/ensure-personal-tenant";

async function seed(email: string, name: string) {
  const adapter = drizzleAuthAdapter(getDatabase);
  const user = await adapter.createUser?.({ email, name, emailVerified: null });
  if (!user) throw new Error("the auth adapter cannot create users");
  const ctx = await systemContext({ kind: "user", userId: user.id });
  const { tenantId } = await ensurePersonalTenant({ ctx, input: { userId: user.id } });
  return { userId: user.id, tenantId };
}

const { email, name } = JSON.parse(process.argv[2] ?? "{}") as { email: string; name: string };
seed(email, name)
  .then((result) => process.stdout.write(`${JSON.stringify(result)}\n`))
  .finally(closeDatabase)
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
