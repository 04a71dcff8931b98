/**
 * The development sign-in through next-auth's own handler (CSRF token, callback, session cookie) with the
 * real options and an embedded database: only a loopback client on an allowed Host is signed in. The
 * headers are the ones `next dev` / `next start` hand the route: X-Forwarded-For holds the socket's peer
 * when the client sent none, or what a proxy or tunnel in front appended.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { AuthOptions } from "next-auth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessApp } from "@/tests/support/route-handlers";

/** next-auth's core handler, which its App Router wrapper calls with the request's headers and cookies. */
type AuthHandler = <Body>(params: {
  req: {
    action: string;
    providerId?: string;
    method: string;
    headers: Record<string, string>;
    cookies: Record<string, string>;
    query: Record<string, string>;
    body: Record<string, string>;
  };
  options: AuthOptions;
}) => Promise<{
  status?: number;
  body?: Body;
  redirect?: string;
  cookies?: Array<{ name: string; value: string }>;
}>;
// The wrapper needs Next's request scope (next/headers), and the package exports no `core` entry point.
const { AuthHandler } = createRequire(import.meta.url)(
  path.resolve("node_modules/next-auth/core/index.js"),
) as { AuthHandler: AuthHandler };

const app = inProcessApp("dev-sign-in");
let options: AuthOptions;

/** A dev sign-in as a browser does it: fetch the CSRF token, then post it to the callback. */
async function signIn(headers: Record<string, string>) {
  const csrf = await AuthHandler<{ csrfToken: string }>({
    req: { action: "csrf", method: "GET", headers, cookies: {}, query: {}, body: {} },
    options,
  });
  const csrfCookie = csrf.cookies?.find((cookie) => cookie.name.endsWith("csrf-token"));
  if (!csrfCookie || !csrf.body) throw new Error("no CSRF token");
  const callback = await AuthHandler({
    req: {
      action: "callback",
      providerId: "dev",
      method: "POST",
      headers,
      cookies: { [csrfCookie.name]: csrfCookie.value },
      query: {},
      body: { csrfToken: csrf.body.csrfToken, callbackUrl: "/dashboard", json: "true" },
    },
    options,
  });
  const session = callback.cookies?.find((cookie) => cookie.name.endsWith("session-token"));
  return {
    status: callback.status ?? 200,
    redirect: decodeURIComponent(callback.redirect ?? ""),
    signedIn: Boolean(session?.value),
  };
}

async function devUsers() {
  const { getDatabase } = await import("@/lib/db");
  const { users } = await import("@/lib/db/schema");
  const { DEV_USER } = await import("@/lib/services/accounts/upsert-dev-user");
  const db = await getDatabase();
  return db.withSystem((tx) => tx.select().from(users).where(eq(users.email, DEV_USER.email)));
}

beforeAll(async () => {
  await app.start({ AUTH_URL: "", SEARCHMUX_ALLOWED_HOSTS: "", AUTH_DEV_LOGIN: "1" });
  options = (await import("@/lib/auth/options")).authOptions();
});

afterAll(() => app.stop());

describe("the development sign-in", () => {
  it.each([
    ["a client elsewhere on the network", { host: "192.0.2.2:3000", "x-forwarded-for": "192.0.2.20" }],
    [
      "a network client using the name localhost",
      { host: "localhost:3000", "x-forwarded-for": "192.0.2.20" },
    ],
    ["a client behind a tunnel", { host: "localhost:3000", "x-forwarded-for": "127.0.0.1, 203.0.113.9" }],
    ["a client whose address is unknown", { host: "localhost:3000" }],
    [
      "a rebound page on the developer's machine",
      { host: "evil.example:3000", "x-forwarded-for": "127.0.0.1" },
    ],
  ])("refuses %s with 401 and a reason, creating no user", async (_name, headers) => {
    const outcome = await signIn(headers);
    expect(outcome).toEqual({
      status: 401,
      redirect: expect.stringMatching(/\/api\/auth\/error\?error=the development sign-in is refused: /),
      signedIn: false,
    });
    expect(await devUsers()).toEqual([]);
  });

  it.each([
    ["127.0.0.1", "localhost:3000"],
    ["::1", "[::1]:3000"],
    ["::ffff:127.0.0.1", "127.0.0.1:3000"],
  ])("signs a loopback client (%s on %s) in", async (address, host) => {
    const outcome = await signIn({ host, "x-forwarded-for": address });
    expect(outcome).toEqual({ status: 200, redirect: "http://localhost:3000/dashboard", signedIn: true });
    expect(await devUsers()).toHaveLength(1);
  });
});
