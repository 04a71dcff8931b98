/**
 * A token's "last used" moves only for requests it was allowed to make (#16): one refused for its scope
 * or its rate limit leaves it alone, one the route accepted moves it (whatever the handler answers).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantContext } from "@/lib/pipeline/context";
import {
  callRoute,
  inProcessApp,
  newToken,
  operatorWorkspace,
  type RouteHandler,
  routeRequest,
} from "@/tests/support/route-handlers";

const app = inProcessApp("token-last-used");
const LIMIT_RPM = 3;

type Route = RouteHandler<Record<string, never>>;
let keysRoute: Route;
let providersRoute: Route;
let ctx: TenantContext;

/** When the token with this secret was last used (found by its last 4 characters). */
async function lastUsed(secret: string): Promise<Date | null> {
  const { apiTokens } = await import("@/lib/db/schema");
  const [row] = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({ lastUsedAt: apiTokens.lastUsedAt })
      .from(apiTokens)
      .where(eq(apiTokens.last4, secret.slice(-4))),
  );
  return row?.lastUsedAt ?? null;
}

beforeAll(async () => {
  await app.start({ SEARCHMUX_RATE_LIMIT_RPM: String(LIMIT_RPM) });
  keysRoute = (await import("@/app/api/v1/keys/route")).GET as Route;
  providersRoute = (await import("@/app/api/v1/providers/route")).GET as Route;
  ctx = await operatorWorkspace("last used");
});

afterAll(() => app.stop());

describe("a token's last use", () => {
  it("moves for an authorized request only, never for one refused for its scope or rate limit", async () => {
    const { verifyToken } = await import("@/lib/services/tokens/verify-token");
    const { limitToken } = await import("@/lib/pipeline/rate-limit/limits");
    const searchOnly = await newToken(ctx, { name: "search only", scopes: ["search"] });
    const limited = await newToken(ctx, { name: "limited" });
    const accepted = await newToken(ctx, { name: "accepted" });

    // Refused for its scope: the keys route needs admin.
    expect((await callRoute(keysRoute, routeRequest("/api/v1/keys", { token: searchOnly }), {})).status).toBe(
      403,
    );
    // Refused for its rate limit: its window is used up first.
    const verified = await verifyToken({ ctx, input: { token: limited } });
    if (!verified) throw new Error("token did not verify");
    for (let i = 0; i < LIMIT_RPM; i++) await limitToken(ctx, verified);
    expect(
      (await callRoute(providersRoute, routeRequest("/api/v1/providers", { token: limited }), {})).status,
    ).toBe(429);

    expect(
      (await callRoute(providersRoute, routeRequest("/api/v1/providers", { token: accepted }), {})).status,
    ).toBe(200);
    // The use is recorded off the request's path: wait for the accepted one, by then the others would be too.
    for (let i = 0; i < 100 && !(await lastUsed(accepted)); i++) await new Promise((r) => setTimeout(r, 20));
    expect(await lastUsed(accepted)).toBeInstanceOf(Date);
    expect(await lastUsed(searchOnly)).toBeNull();
    expect(await lastUsed(limited)).toBeNull();
  });
});
