/**
 * fetch engine entry point: one URL in, its main content out. No database, no env: providers, keys,
 * base URLs, the SSRF allowlist and admission come from the caller.
 *
 * Order: domain routes that handle the URL (GitHub, YouTube, Reddit, arXiv), then the waterfall:
 * the direct fetcher (free) and the keyed providers cheapest first. A step fails over on an HTTP or
 * transport error or when the content checks reject its page (challenge, login/cookie/paywall,
 * JS-only shell, too short). With `skip_providers` the waterfall continues to a second winner
 * (`alternative_results`). A page that was only too short wins when nothing better turns up. The site's own
 * 404 or 410 to the direct fetcher ends the waterfall: no other step is paid to render an error page
 * (origin-verdict.ts).
 *
 * Throws: ZodError for invalid input, SsrfBlocked for refused targets (before any step, or when the
 * direct fetcher finds one behind DNS or a redirect), FetchFailed when no step produced a page (with the
 * site's verdict when it ended the waterfall).
 */
import { linkedAbort } from "@/lib/engine/shared/abort";
import { ladderOrder } from "@/lib/engine/shared/ladder";
import type { AdmitHook } from "@/lib/engine/shared/types";
import { type Allowlist, checkUrl, type Resolver, type SsrfPolicy } from "@/lib/http/ssrf";
import { attemptStep, type StepContext } from "./attempt";
import { FetchFailed } from "./errors";
import { type FetchInput, type FetchInputRaw, fetchInputSchemaFor } from "./input";
import { isOriginVerdict } from "./origin-verdict";
import { renderContent } from "./render";
import type {
  FetchedDocument,
  FetchFailure,
  FetchFormat,
  FetchProvider,
  FetchProviderEntry,
  FetchSpan,
  PageMetadata,
} from "./types";

export interface RunFetchArgs {
  /** Validated here (fetchInputSchemaFor(registry)); already-validated input passes unchanged. */
  input: FetchInputRaw;
  /** Providers chosen and resolved by the caller; duplicates of an id after the first are ignored. */
  providers: readonly FetchProviderEntry[];
  /**
   * Every fetch provider the caller knows (its registry): the names the input may give and the domain
   * routes that may refuse its URL, whether or not they are among `providers`. By default `providers`'.
   */
  registry?: readonly FetchProvider[];
  /** The caller's cancellation (client gone). */
  signal?: AbortSignal;
  ssrf: { allowlist: Allowlist; resolver?: Resolver; allowedPorts?: readonly number[] };
  /** Called before each paid step (budget reservation, circuit breaker). */
  admit?: AdmitHook;
  /** Decoded body cap for the direct fetcher (default 10 MiB). */
  maxBytes?: number;
}

export interface FetchedContent {
  final_url: string;
  title: string;
  content: string;
  format: FetchFormat;
  provider: string;
  metadata: FetchMetadata;
}

interface FetchMetadata extends PageMetadata {
  truncated: boolean;
  total_chars: number;
  /** Set when the content is shorter than the checks want but nothing better was found. */
  warning?: string;
}

export interface FetchResult extends FetchedContent {
  url: string;
  providers_attempted: string[];
  providers_failed: FetchFailure[];
  /** The second winner, when `skip_providers` asked for a second opinion and one was found. */
  alternative_results?: FetchedContent[];
  spans: FetchSpan[];
  duration_ms: number;
}

interface Winner {
  entry: FetchProviderEntry;
  document: FetchedDocument;
  warning?: string;
}

export async function runFetch(args: RunFetchArgs): Promise<FetchResult> {
  const origin = performance.now();
  const registry = args.registry ?? args.providers.map((entry) => entry.provider);
  const input = fetchInputSchemaFor(registry).parse(args.input);
  const url = new URL(input.url);
  const policy: SsrfPolicy = { allowlist: args.ssrf.allowlist, allowedPorts: args.ssrf.allowedPorts };
  checkUrl(url, policy);

  const steps = planSteps(args.providers, url, input);
  const wanted = (input.skip_providers?.length ?? 0) > 0 ? 2 : 1;
  const deadline = linkedAbort(
    [args.signal],
    input.timeout_ms,
    `no page before the ${input.timeout_ms} ms deadline`,
  );
  const context: StepContext = {
    url,
    format: input.format,
    network: { ssrf: policy, resolver: args.ssrf.resolver, maxBytes: args.maxBytes },
    deadline: deadline.signal,
    admit: args.admit,
    origin,
  };

  const winners: Winner[] = [];
  const attempted: string[] = [];
  const failed: FetchFailure[] = [];
  const spans: FetchSpan[] = [];
  let lastResort: (Winner & { failure: FetchFailure }) | undefined;
  let originVerdict: FetchFailure | undefined;
  try {
    for (const entry of steps) {
      if (deadline.signal.aborted || winners.length >= wanted) break;
      attempted.push(entry.provider.id);
      const outcome = await attemptStep(entry, context);
      spans.push(outcome.span);
      if (outcome.ok) {
        winners.push({ entry, document: outcome.document });
        continue;
      }
      failed.push(outcome.failure);
      if (isOriginVerdict(entry, outcome.failure)) {
        originVerdict = outcome.failure;
        break;
      }
      const short = outcome.shortDocument;
      if (short && short.markdown.length > (lastResort?.document.markdown.length ?? -1)) {
        lastResort = { entry, document: short, failure: outcome.failure, warning: outcome.failure.message };
      }
    }
  } finally {
    deadline.dispose();
  }

  if (originVerdict !== undefined && winners.length === 0) {
    throw new FetchFailed(attempted, failed, spans, originVerdict);
  }
  if (winners.length === 0 && lastResort !== undefined) {
    winners.push(lastResort);
    failed.splice(failed.indexOf(lastResort.failure), 1);
  }
  const [first, second] = winners;
  if (first === undefined) throw new FetchFailed(attempted, failed, spans);

  const result: FetchResult = {
    url: input.url,
    ...present(first, input),
    providers_attempted: attempted,
    providers_failed: failed,
    spans,
    duration_ms: Math.round(performance.now() - origin),
  };
  if (second !== undefined) result.alternative_results = [present(second, input)];
  return result;
}

/** Domain routes that handle the URL first, then the waterfall cheapest first; filters applied. */
/** The steps tried for `url`, in order: routes that handle it, then the waterfall cheapest first. */
export function planSteps(
  entries: readonly FetchProviderEntry[],
  url: URL,
  input: Pick<FetchInput, "providers" | "skip_providers">,
): FetchProviderEntry[] {
  const byId = new Map<string, FetchProviderEntry>();
  for (const entry of entries) if (!byId.has(entry.provider.id)) byId.set(entry.provider.id, entry);
  const allowed = [...byId.values()].filter(
    ({ provider }) =>
      (input.providers === undefined || input.providers.includes(provider.id)) &&
      !(input.skip_providers ?? []).includes(provider.id),
  );
  const routes = allowed.filter(({ provider }) => provider.handles?.(url) === true);
  const waterfall = allowed.filter(({ provider }) => provider.handles === undefined);
  return [...routes, ...ladderOrder(waterfall)];
}

function present({ entry, document, warning }: Winner, input: FetchInput): FetchedContent {
  const rendered = renderContent(document, input.format, input.max_chars);
  const metadata: FetchMetadata = {
    ...document.metadata,
    // A page whose HTML was longer than extraction reads is missing its end too.
    truncated: rendered.truncated || document.metadata.html_cut !== undefined,
    total_chars: rendered.total_chars,
  };
  if (warning !== undefined) metadata.warning = warning;
  return {
    final_url: document.finalUrl ?? input.url,
    title: document.title ?? document.metadata.title ?? "",
    content: rendered.content,
    format: rendered.format,
    provider: entry.provider.id,
    metadata,
  };
}
