/**
 * Outbound HTTP for calling provider APIs (Tavily, Brave, ...). NOT for user-supplied URLs: those go
 * through the SSRF-guarded fetcher.
 *
 * - One shared keep-alive undici Agent, so a fan-out reuses TLS connections across queries.
 * - The caller's AbortSignal is honoured: an abort whose reason is a timeout becomes
 *   ProviderError("timeout"); any other abort propagates unchanged (the caller cancelled).
 * - Response bodies are counted while streaming and cut off at `maxBytes` (ProviderError("too_large")).
 * - Non-2xx statuses map to FailureReasons (statusError): the adapter's own rules first (`errorRules`, from the
 *   provider's documentation), then 401/403 bad_key when the request carried a key (else the provider refused
 *   the request: blocked), 402 quota_exhausted, 400/422 invalid_request, 429 rate_limited, else http_error.
 * - Rate-limit headers are read (rate-limit-headers.ts): a 429 without Retry-After takes its wait from
 *   them, and an answer tells whether the key has calls left (`rateLimit`).
 * - Error messages never contain request header values or credential-like query parameters.
 */
import { Agent, type Dispatcher, request as undiciRequest } from "undici";
import type { z } from "zod";
import { type ErrorRule, type FailureReason, ProviderError } from "./provider-error";
import { type RateLimitHint, rateLimitHint } from "./rate-limit-headers";

const DEFAULT_MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
const ERROR_EXCERPT_BYTES = 8 * 1024;
const ERROR_EXCERPT_CHARS = 200;
const USER_AGENT = "Searchmux/0.1 (+https://github.com/searchmux/searchmux)";

const providerAgent = new Agent({
  keepAliveTimeout: 30_000,
  keepAliveMaxTimeout: 120_000,
  connections: 128,
  connect: { timeout: 10_000 },
  // Deadlines come from the caller's AbortSignal; these only guard against a forgotten signal.
  headersTimeout: 120_000,
  bodyTimeout: 120_000,
});

export type QueryValue = string | number | boolean | undefined;

export interface ProviderRequestOptions {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Serialised as JSON with content-type application/json. */
  json?: unknown;
  /** Serialised as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  signal: AbortSignal;
  maxBytes?: number;
  /** What the provider's own error statuses and codes mean, where the generic mapping would mislead. */
  errorRules?: readonly ErrorRule[];
}

export interface ProviderHttpResponse {
  status: number;
  bytes: number;
  contentType: string;
  body: string;
  /** What the response's rate-limit headers say about the key, when they say anything. */
  rateLimit?: RateLimitHint;
}

export interface ProviderJsonResponse {
  status: number;
  bytes: number;
  json: unknown;
  rateLimit?: RateLimitHint;
}

/** A user-supplied path (or part of one) that must not become part of a provider URL. */
export class InvalidPath extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidPath";
  }
}

const isDotSegment = (segment: string) => segment === "." || segment === "..";

/**
 * The decoded segments of a user URL's path (`url.pathname`, still percent-encoded), one per raw
 * segment: each is decoded on its own, so an encoded slash stays inside its segment. Throws InvalidPath
 * for a malformed escape, and for a `.` or `..` segment, including one that decoding reveals behind an
 * encoded slash or backslash (`..%2F`), which a server that decodes before routing would follow.
 */
export function userPathSegments(pathname: string): string[] {
  return pathname
    .split("/")
    .slice(1)
    .map((raw) => {
      let segment: string;
      try {
        segment = decodeURIComponent(raw);
      } catch {
        throw new InvalidPath("its path has a malformed percent escape");
      }
      const dots = segment.split(/[/\\]/).find(isDotSegment);
      if (dots !== undefined) throw new InvalidPath(`its path has a "${dots}" segment`);
      return segment;
    });
}

/**
 * "/a/b%20c" from ["a", "b c"]: every segment percent-encoded whole (slashes included), so no input can
 * add a level or walk up. Throws InvalidPath for an empty, `.` or `..` segment and for text that is not
 * well-formed Unicode.
 */
export function encodePath(segments: readonly string[]): string {
  return segments
    .map((segment) => {
      if (segment === "") throw new InvalidPath("its path has an empty segment");
      if (isDotSegment(segment)) throw new InvalidPath(`its path has a "${segment}" segment`);
      try {
        return `/${encodeURIComponent(segment)}`;
      } catch {
        throw new InvalidPath("its path is not well-formed Unicode");
      }
    })
    .join("");
}

/**
 * `base` + `path` + query string; undefined values are skipped, base may end with a slash. `path` must
 * reach the provider exactly as written (user parts go through encodePath): one the URL parser would
 * change (a dot segment it resolves, a `?` or `#` it splits off) throws InvalidPath, so a request with an
 * operator's key can only reach the endpoint its adapter meant.
 */
export function buildUrl(base: string, path: string, query: Record<string, QueryValue> = {}): string {
  const url = new URL(base.replace(/\/+$/, "") + path);
  const intended = new URL(base).pathname.replace(/\/+$/, "") + path;
  if (url.pathname !== intended) {
    throw new InvalidPath(`the provider path ${intended} would be sent as ${url.pathname}`);
  }
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.toString();
}

/** Sends a request and returns the decoded text body of a 2xx response; throws ProviderError otherwise. */
export async function request(url: string, options: ProviderRequestOptions): Promise<ProviderHttpResponse> {
  const { signal } = options;
  const target = describeTarget(url);
  const credentials = credentialsOf(url, options.headers);
  const { headers, body } = encodeBody(options);
  try {
    const response = await undiciRequest(url, {
      dispatcher: providerAgent,
      method: options.method ?? (body === undefined ? "GET" : "POST"),
      headers: { "user-agent": USER_AGENT, accept: "application/json", ...options.headers, ...headers },
      body,
      signal,
    });
    const contentType = headerValue(response.headers["content-type"]) ?? "";
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw await statusError(response, target, credentials, options.errorRules);
    }
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (Number(headerValue(response.headers["content-length"])) > maxBytes) {
      discard(response.body);
      throw tooLarge(target, maxBytes);
    }
    const { text, bytes } = await readCapped(response.body, maxBytes, target);
    const rateLimit = rateLimitHint(response.headers);
    return { status: response.statusCode, bytes, contentType, body: text, ...(rateLimit && { rateLimit }) };
  } catch (error) {
    throw translateError(error, signal, target);
  }
}

/** Like `request`, then decodes the body as JSON (HTML or malformed JSON -> invalid_response). */
export async function requestJson(
  url: string,
  options: ProviderRequestOptions,
): Promise<ProviderJsonResponse> {
  const response = await request(url, options);
  const json = decodeJson(response, describeTarget(url));
  return { status: response.status, bytes: response.bytes, json, rateLimit: response.rateLimit };
}

/** Validates a decoded body; on failure throws invalid_response naming the first offending path. */
export function parseResponse<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.map(String).join(".") : "(root)";
  throw new ProviderError(
    "invalid_response",
    `unexpected response shape at ${path}: ${issue?.message ?? "invalid"}`,
  );
}

/** Retry-After as seconds: delta-seconds or an HTTP date (clamped at 0); undefined when absent or unparsable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function encodeBody(options: ProviderRequestOptions): { headers: Record<string, string>; body?: string } {
  if (options.json !== undefined) {
    return { headers: { "content-type": "application/json" }, body: JSON.stringify(options.json) };
  }
  if (options.form !== undefined) {
    return {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(options.form).toString(),
    };
  }
  return { headers: {} };
}

async function readCapped(
  body: Dispatcher.ResponseData["body"],
  maxBytes: number,
  target: string,
): Promise<{ text: string; bytes: number }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    bytes += buffer.length;
    if (bytes > maxBytes) {
      discard(body);
      throw tooLarge(target, maxBytes);
    }
    chunks.push(buffer);
  }
  return { text: Buffer.concat(chunks).toString("utf8"), bytes };
}

/** Drops the connection instead of draining it; undici emits an AbortError on destroy, which is expected. */
function discard(body: Dispatcher.ResponseData["body"]): void {
  body.on("error", () => {});
  body.destroy();
}

function tooLarge(target: string, maxBytes: number): ProviderError {
  return new ProviderError("too_large", `${target} response exceeded ${maxBytes} bytes`);
}

/** What a status means without a rule of the provider's: the generic reason, and its words with the status. */
export function statusMeaning(status: number, keyed: boolean): { reason: FailureReason; says: string } {
  const meaning = (reason: FailureReason, says: string) => ({ reason, says: `${says} (HTTP ${status})` });
  if (status === 401 || status === 403) {
    // Only a request that carried a key can have its key rejected; a keyless provider refuses the server.
    return keyed ? meaning("bad_key", "rejected the API key") : meaning("blocked", "refused the request");
  }
  if (status === 402)
    return meaning("quota_exhausted", "refused the call: the key's quota or credit is used up");
  if (status === 400 || status === 422) return meaning("invalid_request", "refused the request as invalid");
  if (status === 429) return meaning("rate_limited", "rate limited");
  return { reason: "http_error", says: `returned HTTP ${status}` };
}

/** Reasons whose answer may say when to try again (Retry-After, else the rate-limit headers' reset). */
const WAITS: ReadonlySet<FailureReason> = new Set(["rate_limited", "quota_exhausted"]);

async function statusError(
  response: Dispatcher.ResponseData,
  target: string,
  credentials: readonly string[],
  rules: readonly ErrorRule[] = [],
): Promise<ProviderError> {
  const status = response.statusCode;
  const body = redact(await readErrorBody(response.body), redactable(credentials));
  const excerpt = excerptOf(body);
  const detail = excerpt ? `: ${excerpt}` : "";
  const rateLimit = rateLimitHint(response.headers);
  const rule = rules.find((r) => r.status === status && (r.body === undefined || r.body.test(body)));
  const generic = statusMeaning(status, credentials.length > 0);
  const reason = rule?.reason ?? generic.reason;
  const says = rule ? `${rule.says} (HTTP ${status})` : generic.says;
  const retryAfter = WAITS.has(reason)
    ? (parseRetryAfter(headerValue(response.headers["retry-after"])) ?? rateLimit?.retryAfter)
    : undefined;
  return new ProviderError(reason, `${target} ${says}${detail}`, status, retryAfter, rateLimit);
}

/** The start of an error body (its codes are near the top), the rest discarded so the socket can be freed. */
async function readErrorBody(body: Dispatcher.ResponseData["body"]): Promise<string> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      chunks.push(buffer);
      bytes += buffer.length;
      if (bytes >= ERROR_EXCERPT_BYTES) {
        discard(body);
        break;
      }
    }
  } catch {
    // The body is best effort; the status already tells what happened.
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** A short, single-line prefix of an error body for the message, markup removed. */
function excerptOf(body: string): string {
  const text = body
    .replace(/<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > ERROR_EXCERPT_CHARS ? `${text.slice(0, ERROR_EXCERPT_CHARS)}…` : text;
}

function decodeJson(response: ProviderHttpResponse, target: string): unknown {
  const start = response.body.trimStart();
  if (response.contentType.includes("text/html") || start.startsWith("<")) {
    throw new ProviderError(
      "invalid_response",
      `${target} returned an HTML page where JSON was expected (HTTP ${response.status}, ${response.contentType || "no content-type"})`,
      response.status,
    );
  }
  try {
    return JSON.parse(response.body);
  } catch {
    throw new ProviderError("invalid_response", `${target} returned malformed JSON`, response.status);
  }
}

const NETWORK_ERROR_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
]);
const TIMEOUT_ERROR_CODES = new Set([
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

/** Maps transport errors and aborts to ProviderErrors (timeout, network_error); others pass through. */
export function translateError(error: unknown, signal: AbortSignal, target: string): unknown {
  if (error instanceof ProviderError) return error;
  if (signal.aborted) {
    return isTimeoutReason(signal.reason)
      ? new ProviderError("timeout", `${target} did not answer before the deadline`)
      : signal.reason;
  }
  const code = errorCode(error);
  if (code !== undefined && TIMEOUT_ERROR_CODES.has(code)) {
    return new ProviderError("timeout", `${target} timed out (${code})`);
  }
  if (code !== undefined && NETWORK_ERROR_CODES.has(code)) {
    return new ProviderError("network_error", `${target} connection failed (${code})`);
  }
  return error;
}

/** True for AbortSignal.timeout() reasons and for timeouts raised by our own deadline code. */
function isTimeoutReason(reason: unknown): boolean {
  if (reason instanceof ProviderError) return reason.reason === "timeout";
  return reason instanceof Error && reason.name === "TimeoutError";
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = "code" in error ? error.code : undefined;
  if (typeof code === "string") return code;
  const cause = "cause" in error ? error.cause : undefined;
  return cause === error ? undefined : errorCode(cause);
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Host only: URLs may carry keys in their query string (SerpApi), so they never appear in messages. */
function describeTarget(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "provider";
  }
}

const CREDENTIAL_NAME = /key|token|secret|auth|sig|subscription/i;

/** The credential values a request carries (key-like header names and query parameters), non-empty. */
function credentialsOf(url: string, headers: Record<string, string> = {}): string[] {
  const credentials = Object.entries(headers)
    .filter(([name]) => CREDENTIAL_NAME.test(name))
    // "Bearer abc" and "Bot abc": the bare key may be echoed without its scheme.
    .flatMap(([, value]) => [value, value.replace(/^\w+\s+/, "")]);
  try {
    for (const [name, value] of new URL(url).searchParams) {
      if (CREDENTIAL_NAME.test(name)) credentials.push(value);
    }
  } catch {
    // An unparsable URL fails in undici before any body could echo it.
  }
  return credentials.filter((credential) => credential.trim() !== "");
}

/** Credentials long enough to redact without cutting ordinary words out of a message. */
const redactable = (credentials: readonly string[]) => credentials.filter((secret) => secret.length >= 6);

function redact(text: string, secrets: string[]): string {
  return secrets.reduce((result, secret) => result.split(secret).join("[redacted]"), text);
}
