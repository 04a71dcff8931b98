/**
 * Signed-in users other than the development one: a user seeded into the server's data, and a session
 * cookie for them minted with the server's own secret, exactly as next-auth would issue after an OAuth
 * sign-in (the e2e server offers only the development sign-in, which is always the same user).
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { encode } from "next-auth/jwt";
import { readOrCreateSecret } from "@/lib/secret-file.mjs";
import { BASE_URL, serverDataDir } from "./e2e-server";

export interface SeededUser {
  userId: string;
  /** The personal workspace the user owns. */
  tenantId: string;
  email: string;
  name: string;
}

const run = promisify(execFile);

export async function seedUser(email: string, name: string): Promise<SeededUser> {
  const { stdout } = await run(
    "npx",
    ["tsx", "tests/e2e/support/seed-user.ts", JSON.stringify({ email, name })],
    {
      env: { ...process.env, SEARCHMUX_DATA_DIR: serverDataDir(), DATABASE_URL: "", REDIS_URL: "" },
      timeout: 60_000,
    },
  );
  const last = stdout.trim().split("\n").at(-1) ?? "";
  return { ...(JSON.parse(last) as { userId: string; tenantId: string }), email, name };
}

/** Signs `user` in to `tenantId` with `role` in this browser context. */
export async function signInAs(
  context: BrowserContext,
  user: SeededUser,
  tenantId: string,
  role: "owner" | "admin" | "member",
): Promise<void> {
  // The server keeps its secret in its data directory (no AUTH_SECRET in the e2e environment), created by
  // whichever of us needs it first.
  const secret = readOrCreateSecret(path.join(serverDataDir(), "auth-secret"), () =>
    randomBytes(32).toString("base64url"),
  );
  const value = await encode({
    secret,
    token: { sub: user.userId, uid: user.userId, name: user.name, email: user.email, tenantId, role },
  });
  await context.addCookies([
    { name: "next-auth.session-token", value, url: BASE_URL, httpOnly: true, sameSite: "Lax" },
  ]);
}

/** A page in a new 1280×900 context, signed in as `user`, the owner of their own workspace. */
export async function ownerPage(browser: Browser, user: SeededUser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await signInAs(context, user, user.tenantId, "owner");
  return context.newPage();
}
