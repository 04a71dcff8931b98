import { users } from "@/lib/db/schema";
import type { SystemContext } from "@/lib/pipeline/context";

export const DEV_USER = { email: "dev@searchmux.local", name: "Developer" } as const;

/** The user behind the development sign-in (local and test only; see lib/auth/options.ts). */
export async function upsertDevUser({ ctx }: { ctx: SystemContext }) {
  return ctx.db.withSystem(async (tx) => {
    const [row] = await tx
      .insert(users)
      .values(DEV_USER)
      .onConflictDoUpdate({ target: users.email, set: { name: DEV_USER.name } })
      .returning({ id: users.id, email: users.email, name: users.name });
    if (!row) throw new Error("dev user upsert returned no row");
    return row;
  });
}
