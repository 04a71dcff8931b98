/**
 * Outbound request to a user-supplied URL under the SSRF policy (ssrf.ts): a GET of a page, or a POST of a
 * webhook delivery (`method`, `headers`, `body`; `followRedirects: false` answers a redirect as it is).
 *
 * - DNS is resolved once per hop, every answer is checked, and the connection is pinned to the checked
 *   address: the hop's undici Agent gets a `connect.lookup` that ignores the host name and returns that
 *   address, so a rebinding answer between check and dial cannot happen (one lookup per connection).
 * - Redirects are followed by hand (at most `maxRedirects`), each hop checked again; https → http is
 *   refused.
 * - One total deadline covers DNS, connect, headers and body, so a slow drip cannot hold a request;
 *   the decoded body (gzip/deflate/br undone) is capped at `maxBytes`.
 * Errors: SsrfBlocked for refused targets, ProviderError (timeout, too_large, network_error) otherwise.
 */
import type { LookupFunction } from "node:net";
import type { Readable } from "node:stream";
import zlib from "node:zlib";
import { Agent, type Dispatcher, request } from "undici";
import { linkedAbort, raceAbort } from "./abort";
import { translateError } from "./provider-client";
import { ProviderError } from "./provider-error";
import {
  type CheckedTarget,
  checkTarget,
  type Resolver,
  SsrfBlocked,
  type SsrfPolicy,
  systemResolver,
} from "./ssrf";

const DEFAULT_FETCH_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

const USER_AGENT = "Mozilla/5.0 (compatible; Searchmux/0.1; +https://github.com/searchmux/searchmux)";
const ACCEPT =
  "text/html,application/xhtml+xml,application/pdf;q=0.9,text/plain;q=0.8,application/json;q=0.8,*/*;q=0.5";
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface SafeFetchOptions {
  policy: SsrfPolicy;
  /** The caller's deadline or cancellation. */
  signal?: AbortSignal;
  resolver?: Resolver;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Called before each request goes out (the first and every redirect hop); throwing refuses it. */
  beforeRequest?: (url: URL) => void;
  /** GET unless given; a POST sends `body` with `headers` added to the defaults. */
  method?: "GET" | "POST";
  headers?: Readonly<Record<string, string>>;
  body?: string;
  /** false: a redirect is the answer (its status, no body), never followed. */
  followRedirects?: boolean;
}

export interface SafeResponse {
  finalUrl: string;
  status: number;
  contentType: string;
  /** Lowercased header names; repeated headers joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** Decoded (decompressed) body bytes. */
  body: Buffer;
  redirects: number;
}

export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxRedirects = options.maxRedirects ?? MAX_REDIRECTS;
  const deadline = linkedAbort([options.signal], timeoutMs, `no complete response within ${timeoutMs} ms`);
  let current = parseTarget(url);
  try {
    for (let redirects = 0; ; redirects++) {
      const target = await raceAbort(
        checkTarget(current, options.policy, options.resolver ?? systemResolver),
        deadline.signal,
      );
      options.beforeRequest?.(target.url);
      const hop = await fetchHop(target, deadline.signal, options);
      if (hop.location === undefined) return { ...hop.response, redirects };
      if (options.followRedirects === false) return { ...redirectAnswer(target, hop), redirects };
      if (redirects >= maxRedirects) throw new SsrfBlocked(`more than ${maxRedirects} redirects`);
      current = redirectTarget(current, hop.location);
    }
  } catch (error) {
    throw translateError(error, deadline.signal, current.host);
  } finally {
    deadline.dispose();
  }
}

function parseTarget(url: string): URL {
  if (!URL.canParse(url)) throw new SsrfBlocked("not an absolute URL");
  return new URL(url);
}

/** The next hop of a redirect; the scheme and address rules run on it like on the first request. */
export function redirectTarget(from: URL, location: string): URL {
  if (!URL.canParse(location, from)) throw new SsrfBlocked("redirect to an invalid URL");
  const next = new URL(location, from);
  if (from.protocol === "https:" && next.protocol === "http:") {
    throw new SsrfBlocked("redirect from https to http refused");
  }
  return next;
}

type Hop =
  | { location: string; status: number; response?: undefined }
  | { location?: undefined; response: Omit<SafeResponse, "redirects"> };

/** A redirect as the answer, for a caller that follows none: its status and where it pointed. */
function redirectAnswer(target: CheckedTarget, hop: { location: string; status: number }) {
  return {
    finalUrl: target.url.toString(),
    status: hop.status,
    contentType: "",
    headers: { location: hop.location },
    body: Buffer.alloc(0),
  };
}

/** One request on a fresh Agent pinned to the checked address; the Agent is destroyed afterwards. */
async function fetchHop(
  target: CheckedTarget,
  signal: AbortSignal,
  options: Pick<SafeFetchOptions, "method" | "headers" | "body" | "maxBytes">,
): Promise<Hop> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const agent = new Agent({
    connect: { lookup: pinnedLookup(target), timeout: 10_000 },
    connections: 1,
    pipelining: 0,
    // The total deadline comes from `signal`; these only guard against a forgotten one.
    headersTimeout: 60_000,
    bodyTimeout: 60_000,
  });
  try {
    const response = await request(target.url, {
      dispatcher: agent,
      method: options.method ?? "GET",
      headers: {
        "user-agent": USER_AGENT,
        accept: ACCEPT,
        "accept-encoding": "gzip, deflate, br",
        "accept-language": "en;q=0.9,*;q=0.5",
        ...options.headers,
      },
      body: options.body,
      signal,
    });
    const headers = flatten(response.headers);
    const location = headers.location;
    if (REDIRECT_STATUSES.has(response.statusCode) && location !== undefined) {
      discard(response.body);
      return { location, status: response.statusCode };
    }
    if (Number(headers["content-length"]) > maxBytes && headers["content-encoding"] === undefined) {
      discard(response.body);
      throw tooLarge(target.hostname, maxBytes);
    }
    const body = await readDecoded(response.body, headers["content-encoding"], maxBytes, target.hostname);
    return {
      response: {
        finalUrl: target.url.toString(),
        status: response.statusCode,
        contentType: headers["content-type"] ?? "",
        headers,
        body,
      },
    };
  } finally {
    agent.destroy().catch(() => {});
  }
}

/** The lookup undici's connector calls: always the checked address, whatever name it asks for. */
function pinnedLookup({ address }: CheckedTarget): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
}

async function readDecoded(
  body: Dispatcher.ResponseData["body"],
  encoding: string | undefined,
  maxBytes: number,
  host: string,
): Promise<Buffer> {
  const decoder = decoderFor(encoding);
  const source: Readable = decoder ?? body;
  if (decoder !== undefined) {
    body.on("error", (error) => decoder.destroy(error));
    body.pipe(decoder);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of source) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      bytes += buffer.length;
      if (bytes > maxBytes) throw tooLarge(host, maxBytes);
      chunks.push(buffer);
    }
  } catch (error) {
    discard(body);
    decoder?.destroy();
    if (error instanceof ProviderError || !isDecodeError(error)) throw error;
    throw new ProviderError(
      "invalid_response",
      `${host} sent a body that does not match its content-encoding`,
    );
  }
  return Buffer.concat(chunks);
}

function decoderFor(
  encoding: string | undefined,
): zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

function isDecodeError(error: unknown): boolean {
  return error instanceof Error && "code" in error && String(error.code).startsWith("Z_");
}

function tooLarge(host: string, maxBytes: number): ProviderError {
  return new ProviderError("too_large", `${host} response exceeded ${maxBytes} bytes`);
}

/** Drops the connection instead of draining it; the resulting abort error is expected. */
function discard(body: Dispatcher.ResponseData["body"]): void {
  body.on("error", () => {});
  body.destroy();
}

function flatten(headers: Dispatcher.ResponseData["headers"]): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}
