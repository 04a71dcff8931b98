/**
 * The next-auth (v4) adapter: users and linked OAuth accounts, read and written in system mode.
 * Sessions are JWTs, so only the user and account methods are needed.
 */
import { and, eq } from "drizzle-orm";
import type { Adapter, AdapterAccount, AdapterUser } from "next-auth/adapters";
import type { Database, Tx } from "@/lib/db";
import { accounts, users } from "@/lib/db/schema";

type UserRow = typeof users.$inferSelect;

const toAdapterUser = (row: UserRow): AdapterUser => ({
  id: row.id,
  name: row.name,
  email: row.email ?? "",
  emailVerified: row.emailVerified,
  image: row.image,
});

export function drizzleAuthAdapter(database: () => Promise<Database>): Adapter {
  const system = async <T>(fn: (tx: Tx) => Promise<T>) => (await database()).withSystem(fn);

  return {
    createUser: (user: Omit<AdapterUser, "id">) =>
      system(async (tx) => {
        const [row] = await tx
          .insert(users)
          .values({
            name: user.name,
            email: user.email,
            emailVerified: user.emailVerified,
            image: user.image,
          })
          .returning();
        if (!row) throw new Error("user insert returned no row");
        return toAdapterUser(row);
      }),
    getUser: (id) =>
      system(async (tx) => {
        const [row] = await tx.select().from(users).where(eq(users.id, id));
        return row ? toAdapterUser(row) : null;
      }),
    getUserByEmail: (email) =>
      system(async (tx) => {
        const [row] = await tx.select().from(users).where(eq(users.email, email));
        return row ? toAdapterUser(row) : null;
      }),
    getUserByAccount: ({ provider, providerAccountId }) =>
      system(async (tx) => {
        const [row] = await tx
          .select({ user: users })
          .from(accounts)
          .innerJoin(users, eq(users.id, accounts.userId))
          .where(and(eq(accounts.provider, provider), eq(accounts.providerAccountId, providerAccountId)));
        return row ? toAdapterUser(row.user) : null;
      }),
    updateUser: (user) =>
      system(async (tx) => {
        const [row] = await tx
          .update(users)
          .set({ name: user.name, email: user.email, emailVerified: user.emailVerified, image: user.image })
          .where(eq(users.id, user.id))
          .returning();
        if (!row) throw new Error(`user ${user.id} does not exist`);
        return toAdapterUser(row);
      }),
    linkAccount: (account: AdapterAccount) =>
      system(async (tx) => {
        await tx.insert(accounts).values({
          userId: account.userId,
          type: account.type,
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          refreshToken: account.refresh_token,
          accessToken: account.access_token,
          expiresAt: account.expires_at,
          tokenType: account.token_type,
          scope: account.scope,
          idToken: account.id_token,
          sessionState: typeof account.session_state === "string" ? account.session_state : null,
        });
      }),
  };
}
