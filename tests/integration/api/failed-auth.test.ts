/**
 * Security #14, failed-authentication lockout, through a real token route (GET /api/v1/usage): the
 * bucket is the address our trusted proxies wrote, so a forged X-Forwarded-For neither picks the
 * guesser's bucket nor locks out the client it names; without trusted proxies no address is believed and
 * a flood of bogus tokens never refuses a valid one; a blocked address still gets in with a token that
 * verified before (vouched), while a token never seen valid is refused there without a lookup.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FAILED_AUTH_PER_MINUTE } from "@/lib/pipeline/rate-limit/limits";
import { generateToken, hashToken } from "@/lib/services/tokens/token-format";
import { tokenCacheKey } from "@/lib/services/tokens/verify-token";
import { boundRouteHandler } from "@/tests/support/app-routes";
import {
  callRoute,
  newToken as createClientToken,
  inProcessApp,
  operatorWorkspace,
  type RouteHandler,
  routeRequest,
} from "@/tests/support/route-handlers";

type Route = RouteHandler<Record<string, never>>;

const app = inProcessApp("failed-auth", { database: "fresh" });
let usage: Route;
let newToken: () => Promise<string>;
let forgetVerdict: (token: string) => Promise<void>;

/** A fresh documentation address (198.51.100.0/24 and 203.0.113.0/24), so cases never share a bucket. */
let lastOctet = 0;
const address = () => `${lastOctet < 250 ? "198.51.100" : "203.0.113"}.${(lastOctet++ % 250) + 1}`;

async function get(token: string | null, forwardedFor?: string) {
  const headers: Record<string, string> =
    forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor };
  const response = await callRoute(usage, routeRequest("/api/v1/usage", { token, headers }), {});
  return { status: response.status, retryAfter: response.headers.get("retry-after") };
}

beforeAll(async () => {
  await app.start({ SEARCHMUX_RATE_LIMIT_RPM: "100000" });
  usage = await boundRouteHandler("/api/v1/usage", "GET");
  const { platform } = await import("@/lib/pipeline/platform");
  const ctx = await operatorWorkspace("failed-auth");
  newToken = () => createClientToken(ctx, { name: "client" });
  forgetVerdict = async (token) => {
    await (await platform()).kv.del(tokenCacheKey(hashToken(token)));
  };
}, 60_000);

afterAll(() => app.stop());

/** Bogus tokens with valid checksums, so each one reaches the database lookup unless refused first. */
const bogus = () => generateToken();

describe.each([
  // One proxy appends the address it saw; everything left of that entry is the client's to write.
  { setting: "1", forwardedFor: (forged: string[], client: string) => [...forged, client].join(", ") },
  // Known proxies: the client is the rightmost entry that is not one of them.
  {
    setting: "10.0.0.0/8, 2001:db8:ffff::/48",
    forwardedFor: (forged: string[], client: string) => [...forged, client, "10.1.2.3"].join(", "),
  },
])("with SEARCHMUX_TRUSTED_PROXIES=$setting", ({ setting, forwardedFor }) => {
  beforeAll(() => {
    process.env.SEARCHMUX_TRUSTED_PROXIES = setting;
  });

  it("counts a guesser on its own address whatever it forges, and never on the address it names", async () => {
    const guesser = address();
    const victim = address();
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE + 20; i++) {
      // Alternately the victim's address and a fresh one in the part the client writes.
      const forged = i % 2 === 0 ? [victim] : [address(), "10.9.9.9"];
      statuses.push((await get(bogus(), forwardedFor(forged, guesser))).status);
    }
    expect(statuses.slice(0, FAILED_AUTH_PER_MINUTE)).toEqual(Array(FAILED_AUTH_PER_MINUTE).fill(401));
    expect(statuses.slice(FAILED_AUTH_PER_MINUTE)).toEqual(Array(20).fill(429));
    // The victim's bucket is untouched: even a token it never used before gets in.
    expect((await get(await newToken(), forwardedFor([], victim))).status).toBe(200);
    expect((await get(bogus(), forwardedFor([], victim))).status).toBe(401);
  });

  it("lets a blocked address in with a vouched token, cold in KV; refuses a never-seen one there unasked", async () => {
    const shared = address();
    const elsewhere = address();
    const vouched = await newToken();
    expect((await get(vouched, forwardedFor([], elsewhere))).status).toBe(200);
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE; i++) {
      expect((await get(bogus(), forwardedFor([], shared))).status).toBe(401);
    }
    const refused = await get(bogus(), forwardedFor([], shared));
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);

    await forgetVerdict(vouched);
    expect((await get(vouched, forwardedFor([], shared))).status).toBe(200);
    // Documented: a valid token never seen valid is refused from the blocked address without a lookup,
    // works from any other, and from then on (vouched) from the blocked address too.
    const fresh = await newToken();
    expect((await get(fresh, forwardedFor([], shared))).status).toBe(429);
    expect((await get(fresh, forwardedFor([], elsewhere))).status).toBe(200);
    await forgetVerdict(fresh);
    expect((await get(fresh, forwardedFor([], shared))).status).toBe(200);
  });
});

describe("without trusted proxies", () => {
  beforeAll(() => {
    process.env.SEARCHMUX_TRUSTED_PROXIES = "";
  });

  it("never refuses a valid token, cached or cold, for 1000 bogus tokens with or without X-Forwarded-For", async () => {
    const client = address();
    const valid = await newToken();
    expect((await get(valid, client)).status).toBe(200);
    const statuses = new Set<number>();
    for (let round = 0; round < 10; round++) {
      const guesses = Array.from({ length: 100 }, (_, i) =>
        get(bogus(), i % 3 === 0 ? undefined : i % 3 === 1 ? client : address()),
      );
      for (const { status } of await Promise.all(guesses)) statuses.add(status);
      expect((await get(valid, client)).status).toBe(200);
      expect((await get(valid)).status).toBe(200);
      await forgetVerdict(valid);
      expect((await get(valid, round % 2 === 0 ? client : undefined)).status).toBe(200);
    }
    expect([...statuses]).toEqual([401]);
  }, 120_000);
});
