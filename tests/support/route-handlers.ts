/**
 * The app in this process, for tests that call its route handlers directly: the env a server reads (a
 * fresh data directory; the embedded database there, a copy of the run's migrated one, or a fresh database
 * from tests/support/database.ts;
 * in-memory KV instead of Redis), a workspace with tokens made by the operator, requests as a server
 * hands them to a route, and the clean-up. Modules that read the env are imported after `start`.
 */
import { rmSync } from "node:fs";
import type { Surface } from "@/lib/pipeline/capabilities";
import type { Scope, TenantContext } from "@/lib/pipeline/context";
import { databaseTargets, newDataDir, stopEmbeddedServer, type TestDatabase } from "@/tests/support/database";

/** A route handler as Next's app router calls it. */
export type RouteHandler<P = Record<string, string>> = (
  request: Request,
  context: { params: Promise<P> },
) => Promise<Response>;

export interface InProcessApp {
  readonly dataDir: string;
  /** Points the env at this app (`env` on top), creating the fresh database first when asked for one. */
  start(env?: Record<string, string>): Promise<void>;
  /** Closes the database, stops or drops it, and removes the data directory. */
  stop(): Promise<void>;
}

/**
 * An app named `name` (its data directory's prefix). `database: "fresh"` puts it on a new database of
 * the last target (PostgreSQL when DATABASE_URL is set, else its own embedded one), dropped on `stop`.
 */
export function inProcessApp(
  name: string,
  { database = "embedded" }: { database?: "embedded" | "fresh" } = {},
): InProcessApp {
  const dataDir = newDataDir(`smx-${name}-`);
  // Read before `start` empties DATABASE_URL.
  const target = database === "fresh" ? databaseTargets().at(-1) : undefined;
  let fresh: TestDatabase | undefined;
  return {
    dataDir,
    async start(env = {}) {
      if (database === "fresh") {
        if (!target) throw new Error("no database target");
        fresh = await target.create();
      }
      Object.assign(process.env, {
        SEARCHMUX_DATA_DIR: dataDir,
        DATABASE_URL: fresh?.url ?? "",
        REDIS_URL: "",
        KV_REST_API_URL: "",
        KV_REST_API_TOKEN: "",
        ...env,
      });
    },
    async stop() {
      const { closeDatabase } = await import("@/lib/db");
      await closeDatabase();
      if (fresh) await fresh.cleanup();
      else stopEmbeddedServer(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new workspace `name`, and a context on it with every scope, acting as the operator on `surface`. */
export async function operatorWorkspace(
  name: string,
  surface: Surface = "rest",
  scopes?: readonly Scope[],
): Promise<TenantContext> {
  const { systemContext, tenantContext } = await import("@/lib/pipeline/platform");
  const { createTenant } = await import("@/lib/services/tenants/create-tenant");
  const { SCOPES } = await import("@/lib/pipeline/context");
  const operator = { kind: "operator" } as const;
  const tenant = await createTenant({ ctx: await systemContext(operator), input: { name } });
  return tenantContext(operator, tenant.id, scopes ?? SCOPES, surface);
}

/** A new user `email` and a workspace `name` they own (as sign-in would make them): their ids. */
export async function ownedWorkspace(
  email: string,
  name: string,
): Promise<{ userId: string; tenantId: string }> {
  const { getDatabase } = await import("@/lib/db");
  const { users } = await import("@/lib/db/schema");
  const { systemContext } = await import("@/lib/pipeline/platform");
  const { createTenant } = await import("@/lib/services/tenants/create-tenant");
  const db = await getDatabase();
  const [user] = await db.withSystem((tx) =>
    tx.insert(users).values({ email, name: "Owner" }).returning({ id: users.id }),
  );
  if (!user) throw new Error("no user");
  const tenant = await createTenant({
    ctx: await systemContext({ kind: "operator" }),
    input: { name, ownerUserId: user.id },
  });
  return { userId: user.id, tenantId: tenant.id };
}

/** A new API token of `ctx`'s workspace: its secret. */
export async function newToken(
  ctx: TenantContext,
  input: { name: string; scopes?: Scope[] },
): Promise<string> {
  const { createToken } = await import("@/lib/services/tokens/create-token");
  return (await createToken({ ctx, input })).token;
}

export interface RouteRequestInit {
  method?: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token?: string | null;
  /** JSON-encoded unless already a string. */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A request as a server hands it to a route: `url` on http://localhost unless absolute, a Host header
 * (MCP refuses requests for hosts it does not serve) unless `headers` names one, JSON content type.
 */
export function routeRequest(url: string, { method = "GET", token, body, headers }: RouteRequestInit = {}) {
  const target = new URL(url, "http://localhost");
  const all = new Headers({ host: target.host, "content-type": "application/json", ...headers });
  if (token) all.set("authorization", `Bearer ${token}`);
  return new Request(target, {
    method,
    headers: all,
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });
}

/** Calls `handler` with `request` and the route's `params`. */
export function callRoute<P>(
  handler: RouteHandler<P> | undefined,
  request: Request,
  params: P,
): Promise<Response> {
  if (!handler) throw new Error(`no handler for ${request.method} ${new URL(request.url).pathname}`);
  return handler(request, { params: Promise.resolve(params) });
}
