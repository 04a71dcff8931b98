/**
 * Transport: what a route file exports. Next.js answers a method a route file leaves out with an empty
 * 405 and a path no route serves with its HTML 404 page; an API client gets `{error: {code, message}}`
 * from every path instead. A route file names the methods it serves and exports all of them:
 *
 *   export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: withToken(…) });
 *
 * The others answer 405 with `Allow`, OPTIONS answers 204 with `Allow` (as Next's own would), and HEAD
 * is left to Next, which runs GET for it.
 */
import type { NextRequest } from "next/server";
import { errorResponse } from "./errors";

/** The methods a route file exports besides OPTIONS. */
export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
export type RouteMethod = (typeof ROUTE_METHODS)[number];

/** A route handler as Next.js calls it. */
export type RouteHandler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;

/** Any route handler, whatever params it declares; Next.js hands it a NextRequest. */
type AnyHandler = (request: NextRequest, context: never) => Promise<Response>;
/** What answers a method the route does not serve, and OPTIONS. */
type Refusal = (request: Request) => Promise<Response>;

export type MethodHandlers<P> = Partial<Record<RouteMethod, RouteHandler<P>>>;

/** A route file's exports: the handlers it serves as they are, a refusal for every other method. */
export type RouteExports<H> = { [M in RouteMethod]: M extends keyof H ? H[M] : Refusal } & {
  OPTIONS: Refusal;
};

/** `Allow` as Next.js writes it: the methods served, OPTIONS, and HEAD when GET is served; sorted. */
function allowHeader(methods: readonly RouteMethod[]): string {
  return [...methods, "OPTIONS", ...(methods.includes("GET") ? ["HEAD"] : [])].sort().join(", ");
}

/** 404 for a path no route serves. */
function unknownPath(request: Request): Response {
  const path = new URL(request.url).pathname.slice(0, 200);
  return errorResponse("not_found", `no API route at ${path}; the API is described at /api/openapi.json`);
}

/** The answer to `request` on a route serving `served`: 204 with Allow to OPTIONS, else a 405. */
function refuse(request: Request, served: readonly RouteMethod[]): Response {
  const allow = allowHeader(served);
  if (request.method === "OPTIONS") return new Response(null, { status: 204, headers: { allow } });
  const message = `${request.method} is not allowed on ${new URL(request.url).pathname}; allowed: ${allow}`;
  return errorResponse("method_not_allowed", message, undefined, { allow });
}

/** The exports of a route file serving `handlers`. */
export function routeMethods<const H extends Partial<Record<RouteMethod, AnyHandler>>>(
  handlers: H,
): RouteExports<H> {
  const served = ROUTE_METHODS.filter((method) => handlers[method] !== undefined);
  const refusal: Refusal = async (request) => refuse(request, served);
  const exports = Object.fromEntries(ROUTE_METHODS.map((method) => [method, handlers[method] ?? refusal]));
  return { ...exports, OPTIONS: refusal } as RouteExports<H>;
}

/**
 * The exports of a route whose methods depend on its params (the tools' dynamic route): `resolve` gives
 * the handlers serving those params, or undefined when nothing is there (404).
 */
export function resolvedRouteMethods<P>(
  resolve: (params: P) => MethodHandlers<P> | undefined,
): Record<RouteMethod | "OPTIONS", RouteHandler<P>> {
  const answer =
    (method: RouteMethod | "OPTIONS"): RouteHandler<P> =>
    async (request, context) => {
      const handlers = resolve(await context.params);
      if (handlers === undefined) return unknownPath(request);
      const handler = method === "OPTIONS" ? undefined : handlers[method];
      if (handler) return handler(request, context);
      return refuse(
        request,
        ROUTE_METHODS.filter((name) => handlers[name] !== undefined),
      );
    };
  return {
    GET: answer("GET"),
    POST: answer("POST"),
    PUT: answer("PUT"),
    PATCH: answer("PATCH"),
    DELETE: answer("DELETE"),
    OPTIONS: answer("OPTIONS"),
  };
}

/** The exports of the catch-all route: every method of every path it receives is a 404. */
export function unknownPathRoute() {
  return resolvedRouteMethods<unknown>(() => undefined);
}
