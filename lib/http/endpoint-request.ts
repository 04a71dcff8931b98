/**
 * JSON requests to an API whose base URL a workspace supplied (its own model server), never through the pooled
 * provider client: the URL is user input. Every request goes through the SSRF guard (safe-fetch.ts: each DNS
 * answer checked and the connection pinned to the checked address, a bounded body, one total deadline), and
 * on top of it:
 * - https only (checkEndpointScheme, the one rule for every endpoint a workspace names: its model server and
 *   its webhooks), unless the guard allows http (outside production) or the host is an allowlisted loopback
 *   address (a model server on this machine: the key never crosses a network);
 * - no redirect is followed: one is a failure, so the key never goes anywhere the workspace did not name;
 * - failures say what happened (the status, the rule that refused) and never carry the endpoint's body: a
 *   host the operator allowlisted may be an internal service, whose answer must not reach a caller.
 */

import ipaddr from "ipaddr.js";
import type { ProviderJsonResponse } from "./provider-client";
import { parseRetryAfter, statusMeaning } from "./provider-client";
import { ProviderError } from "./provider-error";
import { safeFetch } from "./safe-fetch";
import {
  type Allowlist,
  checkTarget,
  EMPTY_ALLOWLIST,
  isAllowlistedHost,
  type Resolver,
  SsrfBlocked,
  systemResolver,
} from "./ssrf";

/** The network rules of a workspace's endpoint. */
export interface EndpointGuard {
  /** SEARCHMUX_FETCH_ALLOWLIST: hosts exempt from the address rules (and loopback ones from the https rule). */
  allowlist: Allowlist;
  /** Whether plain http is allowed for every host (outside production). */
  allowHttp: boolean;
  /** DNS, injectable for tests; the system resolver otherwise. */
  resolver?: Resolver;
}

/** The strictest rules: what a request is held to when its caller gave none. */
export const STRICT_GUARD: EndpointGuard = { allowlist: EMPTY_ALLOWLIST, allowHttp: false };

/** Answers of a model API are small; a larger one is refused (`too_large`). */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** A literal loopback address (127.0.0.0/8, ::1): a host name is not trusted to stay one. */
function isLoopbackLiteral(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "");
  return ipaddr.isValid(host) && ipaddr.process(host).range() === "loopback";
}

/**
 * https, or plain http where the guard allows it (outside production) or to an allowlisted loopback address.
 * An allowlisted intranet name gets no exemption: a key or a signed event would cross its network in clear.
 */
function checkEndpointScheme(url: URL, guard: EndpointGuard): void {
  if (url.protocol !== "http:" || guard.allowHttp) return;
  if (isLoopbackLiteral(url.hostname) && isAllowlistedHost(url.hostname, guard.allowlist)) return;
  throw new SsrfBlocked(`${url.hostname}: only https is allowed`);
}

/**
 * Resolves when `url` may be called under `guard` (scheme, port, host name and every DNS answer), else throws
 * SsrfBlocked naming the rule: what a workspace's base URL and its webhooks are checked against when saved.
 */
export async function checkEndpoint(url: URL, guard: EndpointGuard): Promise<void> {
  checkEndpointScheme(url, guard);
  await checkTarget(url, { allowlist: guard.allowlist }, guard.resolver ?? systemResolver);
}

export interface EndpointRequest {
  method: "GET" | "POST";
  headers?: Readonly<Record<string, string>>;
  /** Sent as JSON with content-type application/json. */
  json?: unknown;
  signal: AbortSignal;
  guard: EndpointGuard;
  /** A backstop: the caller's signal carries the provider's own timeout. */
  timeoutMs: number;
}

export async function endpointJson(url: string, request: EndpointRequest): Promise<ProviderJsonResponse> {
  const target = new URL(url);
  checkEndpointScheme(target, request.guard);
  const response = await safeFetch(url, {
    policy: { allowlist: request.guard.allowlist },
    resolver: request.guard.resolver,
    signal: request.signal,
    timeoutMs: request.timeoutMs,
    maxBytes: MAX_RESPONSE_BYTES,
    method: request.method,
    headers: {
      accept: "application/json",
      ...(request.json !== undefined && { "content-type": "application/json" }),
      ...request.headers,
    },
    body: request.json === undefined ? undefined : JSON.stringify(request.json),
    followRedirects: false,
  });
  const host = target.host;
  const { status } = response;
  if (status >= 300 && status < 400)
    throw new ProviderError(
      "http_error",
      `${host} redirected (HTTP ${status}); redirects are not followed`,
      status,
    );
  if (status === 429)
    throw new ProviderError(
      "rate_limited",
      `${host} rate limited (HTTP 429)`,
      status,
      parseRetryAfter(response.headers["retry-after"]),
    );
  if (status < 200 || status >= 300) {
    // Every request here carries the workspace's key.
    const { reason, says } = statusMeaning(status, true);
    throw new ProviderError(reason, `${host} ${says}`, status);
  }
  try {
    return { status, bytes: response.body.length, json: JSON.parse(response.body.toString("utf8")) };
  } catch {
    throw new ProviderError("invalid_response", `${host} returned something other than JSON`, status);
  }
}
