/**
 * The Searchmux client: one method per /api/v1 operation, named after its operationId, typed from the
 * OpenAPI document (./schema.ts, openapi-typescript) and sent with openapi-fetch. A call's input is the
 * body's (or the query string's) fields plus any path parameter (`id`); a failure throws SearchmuxError.
 *
 *   const smx = new Searchmux({ token: process.env.SEARCHMUX_TOKEN, baseUrl: "https://searchmux.example" });
 *   const { results } = await smx.webSearch({ query: "rust async runtimes", max_results: 5 });
 */
import createClient from "openapi-fetch";
import { OPERATIONS } from "./operations.js";
import type { operations } from "./schema.js";

export type { components, operations, paths } from "./schema.js";
export { OPERATIONS };

export type OperationId = keyof typeof OPERATIONS;

type JsonOf<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
/** A parameter group's fields; nothing for a group the operation lacks (`never`/`undefined`). */
type FieldsOf<T> = [NonNullable<T>] extends [never] ? unknown : NonNullable<T>;
type Params<O extends OperationId> = operations[O]["parameters"];

/** What a call takes: its path parameters, query fields and body fields, in one object. */
export type Input<O extends OperationId> = FieldsOf<Params<O>["path"]> &
  FieldsOf<Params<O>["query"]> &
  (operations[O] extends { requestBody: infer Body } ? FieldsOf<JsonOf<Body>> : unknown);

type Responses<O extends OperationId> = operations[O]["responses"];
type Success<O extends OperationId> = JsonOf<Responses<O>[Extract<keyof Responses<O>, 200 | 201 | 202>]>;
type EstimateAnswer = { estimate: unknown };
/** What a call answers: the operation's response, or with `estimate: true` (tools only) the estimate. */
export type Output<O extends OperationId> = Exclude<Success<O>, EstimateAnswer>;
export type Estimate<O extends OperationId> = Extract<Success<O>, EstimateAnswer>;

type Call<O extends OperationId> =
  unknown extends Input<O>
    ? (input?: Record<string, never>) => Promise<Output<O>>
    : object extends Input<O>
      ? (input?: Input<O>) => Promise<Output<O>>
      : (input: Input<O>) => Promise<Output<O>>;
/** A tool takes `estimate: true`, answered by its estimate: the first overload. */
type Method<O extends OperationId> = "estimate" extends keyof Input<O>
  ? ((input: Input<O> & { estimate: true }) => Promise<Estimate<O>>) & Call<O>
  : Call<O>;

export type Operations = { [O in OperationId]: Method<O> };

export interface SearchmuxOptions {
  /** An API token (smx_…); default: the SEARCHMUX_TOKEN environment variable. */
  token?: string;
  /** The deployment, e.g. https://searchmux.example; default: SEARCHMUX_URL, else http://localhost:3000. */
  baseUrl?: string;
  /** Another fetch (a proxy's, a test's); default: globalThis.fetch. */
  fetch?: (request: Request) => Promise<Response>;
}

/** A failed call: HTTP status, the API's error code and message, and Retry-After in seconds when sent. */
export class SearchmuxError extends Error {
  override readonly name = "SearchmuxError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter?: number,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

function errorOf(response: Response, body: unknown): SearchmuxError {
  const header = response.headers.get("retry-after");
  const retryAfter = header !== null && Number.isFinite(Number(header)) ? Number(header) : undefined;
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  if (typeof error?.code === "string" && typeof error.message === "string") {
    return new SearchmuxError(response.status, error.code, error.message, retryAfter, error.details);
  }
  // Not the API's own error: a proxy's page, say.
  const text = typeof body === "string" ? body.slice(0, 200).trim() : "";
  return new SearchmuxError(response.status, "http_error", text || `HTTP ${response.status}`, retryAfter);
}

/** openapi-fetch's request() without the paths' types: the operation is picked at run time. */
type AnyRequest = (
  method: string,
  path: string,
  init: { params: Record<string, unknown>; body?: unknown },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

function environment(name: string): string | undefined {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
}

class SearchmuxClient {
  readonly baseUrl: string;
  readonly #request: AnyRequest;

  constructor({ token = environment("SEARCHMUX_TOKEN"), baseUrl, fetch }: SearchmuxOptions = {}) {
    if (!token) throw new Error("a token is needed: new Searchmux({ token }) or SEARCHMUX_TOKEN");
    this.baseUrl = (baseUrl ?? environment("SEARCHMUX_URL") ?? "http://localhost:3000").replace(/\/$/, "");
    const http = createClient({
      baseUrl: this.baseUrl,
      headers: { authorization: `Bearer ${token}` },
      // A redirect would carry the token elsewhere: the API never answers one.
      redirect: "error",
      ...(fetch ? { fetch } : {}),
    });
    this.#request = http.request as AnyRequest;
    for (const id of Object.keys(OPERATIONS) as OperationId[]) {
      Object.defineProperty(this, id, { value: (input?: Record<string, unknown>) => this.#call(id, input) });
    }
  }

  async #call(id: OperationId, input: Record<string, unknown> = {}): Promise<unknown> {
    const op = OPERATIONS[id];
    const pathParams: Record<string, unknown> = {};
    const fields: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(input)) {
      ((op.pathParams as readonly string[]).includes(name) ? pathParams : fields)[name] = value;
    }
    const { data, error, response } = await this.#request(op.method, op.path, {
      params: { path: pathParams, ...(op.input === "query" ? { query: fields } : {}) },
      ...(op.input === "body" ? { body: fields } : {}),
    });
    if (!response.ok) throw errorOf(response, error);
    return data;
  }
}

/** A client of one deployment, as one token: `new Searchmux({ token, baseUrl })`. */
export type Searchmux = SearchmuxClient & Operations;
export const Searchmux = SearchmuxClient as new (options?: SearchmuxOptions) => Searchmux;
