/**
 * The operator of a deployment: signed-in users whose email is in SEARCHMUX_OPERATOR_EMAILS (read from
 * the context's env, so tests configure their own), and the operator CLI. Only they may run the
 * cross-tenant verbs in this folder; each of them calls `assertOperator` before reading anything.
 */
import { eq } from "drizzle-orm";
import { loadConfig } from "@/lib/config";
import { users } from "@/lib/db/schema";
import type { SystemContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";

export async function isOperator({ ctx }: { ctx: SystemContext }): Promise<boolean> {
  if (ctx.actor.kind === "operator") return true;
  if (ctx.actor.kind !== "user") return false;
  const emails = loadConfig(ctx.env).operator.emails;
  if (emails.length === 0) return false;
  const { userId } = ctx.actor;
  const [user] = await ctx.db.withSystem((tx) =>
    tx.select({ email: users.email }).from(users).where(eq(users.id, userId)),
  );
  return Boolean(user?.email && emails.includes(user.email.toLowerCase()));
}

export async function assertOperator(ctx: SystemContext): Promise<void> {
  if (!(await isOperator({ ctx }))) throw new ServiceError("forbidden", "only the operator may do this");
}
