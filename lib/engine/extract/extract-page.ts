/**
 * One URL through the caller's extractors in order, until one fills the schema: a model reads the page text
 * the caller fetched (once, whichever model asks first) and gets one repair turn with the validation errors;
 * a reading extractor (Firecrawl) reads the page itself. Every attempt is an isolated provider call (admission,
 * timeout, span of kind "llm"); a model priced by tokens reserves the most the call can cost and is charged
 * what its answer says it used. The URL's result is its data, or an error naming every attempt's reason.
 */
import { callIsolated } from "@/lib/engine/shared/isolated-call";
import { tokenCostMicros } from "@/lib/engine/shared/price";
import type { AdmitHook, ProviderSpan } from "@/lib/engine/shared/types";
import { type Passage, verifiedPassages } from "./passages";
import { extractionMessages, parseReply, passagesEnvelope, repairMessages } from "./prompt";
import { isStrictCompatible, type JsonSchema, type SchemaValidator } from "./schema";
import type { ChatMessage, ExtractEntry, ExtractReply, ModelPrice } from "./types";

/** Characters of page text a model is given; a longer page is refused (`page_too_long`), not cut. */
const MAX_PAGE_CHARS = 60_000;
/** The longest reply a model may write. */
export const MAX_OUTPUT_TOKENS = 4_096;

type ExtractSpan = ProviderSpan<"llm">;

interface ExtractError {
  code: string;
  message: string;
}

/** The page text for a model: fetched by the caller through the fetch path, or why it could not be. */
type PageText = { title: string; text: string } | { error: ExtractError };
type PageSource = () => Promise<PageText>;

export interface ExtractRequest {
  url: string;
  /** The caller's schema; replies are held to `validate`. */
  schema: JsonSchema;
  validate: SchemaValidator;
  prompt?: string;
  passages: boolean;
}

export interface ExtractContext {
  entries: readonly ExtractEntry[];
  page: PageSource;
  admit?: AdmitHook;
  deadline: AbortSignal;
  origin: number;
}

export type UrlExtraction =
  | { url: string; data: unknown; provider: string; passages?: Passage[] }
  | { url: string; error: ExtractError };

export interface ExtractOutcome {
  item: UrlExtraction;
  spans: ExtractSpan[];
}

/** An extractor's answer, or why it gave none. */
type Attempt = { data: unknown; passages?: Passage[] } | { error: ExtractError };

export async function extractPage(request: ExtractRequest, context: ExtractContext): Promise<ExtractOutcome> {
  const spans: ExtractSpan[] = [];
  const errors: Array<ExtractError & { provider: string }> = [];
  for (const entry of context.entries) {
    const attempt =
      entry.provider.reads === "url"
        ? await readingAttempt(entry, request, context, spans)
        : await modelAttempt(entry, request, context, spans);
    if ("data" in attempt)
      return { item: { url: request.url, provider: entry.provider.id, ...attempt }, spans };
    errors.push({ provider: entry.provider.id, ...attempt.error });
    if (context.deadline.aborted) break;
  }
  const last = errors.at(-1);
  const message = errors.map((e) => `${e.provider}: ${e.message}`).join("; ");
  return {
    item: {
      url: request.url,
      error: { code: last?.code ?? "no_extractor", message: message || "no extractor" },
    },
    spans,
  };
}

/** The envelope with passages, else the caller's schema. */
const replySchema = (request: ExtractRequest) =>
  request.passages ? passagesEnvelope(request.schema) : request.schema;

async function readingAttempt(
  entry: ExtractEntry,
  request: ExtractRequest,
  context: ExtractContext,
  spans: ExtractSpan[],
): Promise<Attempt> {
  const { provider } = entry;
  if (provider.reads !== "url") throw new Error("unreachable: a model reads the page text");
  const outcome = await isolated(entry, context, undefined, (signal) =>
    provider.extract({
      url: request.url,
      schema: request.schema,
      prompt: request.prompt,
      apiKey: entry.apiKey,
      baseUrl: entry.baseUrl,
      signal,
    }),
  );
  spans.push(outcome.span);
  if (!outcome.ok) return { error: outcome.error };
  const parsed = parseReply(outcome.reply.json);
  if (!parsed.ok) return { error: { code: "invalid_output", message: parsed.error } };
  const checked = await request.validate(parsed.value, context.deadline);
  if (!checked.ok)
    return {
      error: { code: "invalid_output", message: `does not match the schema: ${checked.errors.join("; ")}` },
    };
  // A reading extractor quotes nothing: no passages to give.
  return { data: parsed.value, ...(request.passages && { passages: [] }) };
}

async function modelAttempt(
  entry: ExtractEntry,
  request: ExtractRequest,
  context: ExtractContext,
  spans: ExtractSpan[],
): Promise<Attempt> {
  const { provider } = entry;
  if (provider.reads !== "text") throw new Error("unreachable: a reading extractor fetches the page itself");
  if (!entry.model) return { error: { code: "not_configured", message: "no model is named" } };
  const page = await context.page();
  if ("error" in page) return page;
  if (page.text.length > MAX_PAGE_CHARS) {
    return {
      error: {
        code: "page_too_long",
        message: `the page has ${page.text.length} characters of text; a model is given at most ${MAX_PAGE_CHARS}`,
      },
    };
  }
  const schema = replySchema(request);
  const model = entry.model;
  const call = (messages: readonly ChatMessage[]) =>
    isolated(entry, context, entry.price && modelCallPricing(entry.price, messages), (signal) =>
      provider.extract({
        url: request.url,
        schema,
        model,
        messages,
        strict: isStrictCompatible(schema),
        maxOutputTokens: MAX_OUTPUT_TOKENS,
        apiKey: entry.apiKey,
        baseUrl: entry.baseUrl,
        signal,
        guard: entry.guard,
      }),
    );

  const messages = extractionMessages({ ...request, ...page, schema });
  const first = await call(messages);
  spans.push(first.span);
  if (!first.ok) return { error: first.error };
  const checked = await checkReply(first.reply.json, request, page.text, context.deadline);
  if ("data" in checked) return checked;
  const repaired = await call([...messages, ...repairMessages(first.reply.json, checked.errors)]);
  spans.push(repaired.span);
  if (!repaired.ok) return { error: repaired.error };
  const again = await checkReply(repaired.reply.json, request, page.text, context.deadline);
  if ("data" in again) return again;
  return {
    error: {
      code: "invalid_output",
      message: `the reply did not match the schema after one repair: ${again.errors.join("; ")}`,
    },
  };
}

/** A reply's data (and verified passages), or the errors to send back for a repair. */
async function checkReply(
  json: string,
  request: ExtractRequest,
  pageText: string,
  signal: AbortSignal,
): Promise<{ data: unknown; passages?: Passage[] } | { errors: string[] }> {
  const parsed = parseReply(json);
  if (!parsed.ok) return { errors: [parsed.error] };
  const envelope = parsed.value as { data?: unknown; passages?: unknown } | null;
  if (request.passages && (typeof envelope !== "object" || envelope === null || !("data" in envelope)))
    return { errors: ["/ must be an object with data and passages"] };
  const data = request.passages ? envelope?.data : parsed.value;
  const checked = await request.validate(data, signal);
  if (!checked.ok)
    return { errors: checked.errors.map((error) => (request.passages ? `/data${error}` : error)) };
  if (!request.passages) return { data };
  return { data, passages: verifiedPassages(data, envelope?.passages, pageText) };
}

/**
 * What a model call may cost, in micro-dollars (a token at $N per million is N micro-dollars): reserved as
 * one token per character of the prompt (no tokenizer makes fewer characters per token in practice) plus a
 * full reply; charged by the tokens the answer reports, or the reservation when it reports none.
 */
export function modelCallPricing(price: ModelPrice, messages: readonly ChatMessage[]) {
  const perMillion = [price.inputPerMillion, price.outputPerMillion] as const;
  const promptChars = messages.reduce((sum, message) => sum + message.content.length, 0);
  const reserveMicros = tokenCostMicros(perMillion, { input: promptChars, output: MAX_OUTPUT_TOKENS });
  return {
    reserveMicros,
    costMicros: (reply: ExtractReply) =>
      reply.usage
        ? tokenCostMicros(perMillion, {
            input: reply.usage.prompt_tokens,
            output: reply.usage.completion_tokens,
          })
        : reserveMicros,
  };
}

/** Characters of the prompt around the page text (instructions, schema twice in a repair, the first reply). */
const PROMPT_OVERHEAD_CHARS = 4_000;

/**
 * The most one model call over a page can be reserved at (the estimate's figure): the longest page, the
 * schema and prompt, a first reply sent back in a repair, and a full reply.
 */
export function modelCallCeilingMicros(price: ModelPrice, schemaChars: number, promptChars: number): number {
  const chars =
    MAX_PAGE_CHARS + 2 * schemaChars + promptChars + PROMPT_OVERHEAD_CHARS + 4 * MAX_OUTPUT_TOKENS;
  return tokenCostMicros([price.inputPerMillion, price.outputPerMillion], {
    input: chars,
    output: MAX_OUTPUT_TOKENS,
  });
}

/** Guards against an adapter that resolves with something malformed. */
export const isExtractReply = (value: unknown): value is ExtractReply =>
  typeof value === "object" && value !== null && "json" in value && typeof value.json === "string";

type Isolated =
  | { ok: true; reply: ExtractReply; span: ExtractSpan }
  | { ok: false; error: ExtractError; span: ExtractSpan };

async function isolated(
  entry: ExtractEntry,
  context: ExtractContext,
  priced: ReturnType<typeof modelCallPricing> | undefined,
  invoke: (signal: AbortSignal) => Promise<ExtractReply>,
): Promise<Isolated> {
  const outcome = await callIsolated(
    {
      entry,
      invoke,
      isResponse: isExtractReply,
      count: (reply) => (reply.json.trim() === "" ? 0 : 1),
      ...(priced && { pricing: priced }),
    },
    { kind: "llm" as const, admit: context.admit, deadline: context.deadline, origin: context.origin },
  );
  if (outcome.ok) return { ok: true, reply: outcome.response, span: outcome.span };
  const { reason, message } = outcome.failure;
  return { ok: false, error: { code: reason, message: message ?? reason }, span: outcome.span };
}
