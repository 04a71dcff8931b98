/**
 * Which route file Next.js serves a path from, and with which params, for tests that call route
 * handlers directly: at each segment a static folder first, then a dynamic one, then a catch-all, as
 * Next's router ranks them. Only route files count (`app/**\/route.ts`); route groups are not used
 * under app/api.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { RouteHandler, RouteMethod } from "@/lib/api/route-methods";

export type RouteParams = Record<string, string | string[]>;
/** A route file's handlers, by method. */
export type RouteHandlers = Partial<Record<RouteMethod | "OPTIONS", RouteHandler<RouteParams>>>;

export interface RouteMatch {
  /** Relative to the repository, e.g. "app/api/v1/[tool]/route.ts". */
  file: string;
  params: RouteParams;
}

const ROUTE_FILE = "route.ts";

function folders(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
    : [];
}

function match(dir: string, segments: readonly string[], params: RouteParams): RouteMatch | undefined {
  const children = folders(dir);
  const routeIn = (folder: string, extra: RouteParams): RouteMatch | undefined => {
    const file = path.join(folder, ROUTE_FILE);
    return existsSync(file) ? { file, params: { ...params, ...extra } } : undefined;
  };
  const optionalCatchAll = children.find((name) => /^\[\[\.{3}\w+\]\]$/.test(name));
  const [head, ...rest] = segments;
  if (head === undefined) {
    return routeIn(dir, {}) ?? (optionalCatchAll ? routeIn(path.join(dir, optionalCatchAll), {}) : undefined);
  }
  const isStatic = children.includes(head) && !head.startsWith("[");
  const dynamic = children.find((name) => /^\[\w+\]$/.test(name));
  const catchAll = children.find((name) => /^\[\.{3}\w+\]$/.test(name));
  return (
    (isStatic ? match(path.join(dir, head), rest, params) : undefined) ??
    (dynamic
      ? match(path.join(dir, dynamic), rest, { ...params, [dynamic.slice(1, -1)]: head })
      : undefined) ??
    (catchAll ? routeIn(path.join(dir, catchAll), { [catchAll.slice(4, -1)]: [...segments] }) : undefined) ??
    (optionalCatchAll
      ? routeIn(path.join(dir, optionalCatchAll), { [optionalCatchAll.slice(5, -2)]: [...segments] })
      : undefined)
  );
}

/** The route file serving `pathname` (no query string), or undefined when none does. */
export function routeFileFor(pathname: string): RouteMatch | undefined {
  return match("app", pathname.split("/").filter(Boolean), {});
}

/** The handlers serving `pathname` and the params Next.js would hand them. */
export async function appRoute(pathname: string): Promise<{ handlers: RouteHandlers; params: RouteParams }> {
  const found = routeFileFor(pathname);
  if (!found) throw new Error(`no route file serves ${pathname}`);
  const handlers = (await import(path.resolve(found.file))) as RouteHandlers;
  return { handlers, params: found.params };
}

/** The `method` handler serving `pathname`, with the params Next.js would hand it bound in. */
export async function boundRouteHandler(
  pathname: string,
  method: RouteMethod,
): Promise<(request: Request) => Promise<Response>> {
  const { handlers, params } = await appRoute(pathname);
  const handler = handlers[method];
  if (!handler) throw new Error(`${pathname} does not export ${method}`);
  return (request) => handler(request, { params: Promise.resolve(params) });
}

/** Hands `request` to the route Next.js would serve it from (its method's handler), with that route's params. */
export async function serveRequest(request: Request): Promise<Response> {
  const { handlers, params } = await appRoute(new URL(request.url).pathname);
  const handler = handlers[request.method as RouteMethod | "OPTIONS"];
  if (!handler) throw new Error(`${new URL(request.url).pathname} does not export ${request.method}`);
  return handler(request, { params: Promise.resolve(params) });
}

/**
 * A fetch for clients under test (the MCP SDKs' transports and OAuth): each request handed to the route
 * Next.js would serve it from, with the Host header a server would see.
 */
export function appFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const headers = new Headers(init?.headers);
  headers.set("host", url.host);
  return serveRequest(new Request(url, { ...init, headers }));
}
