/**
 * Contract between the fetch engine (lib/engine/fetch) and the fetch adapters
 * (lib/providers/fetch/<id>.ts). Pure types: no I/O, no env, no database.
 */
import type {
  FailureReason,
  ProviderId,
  ProviderRegistration,
  ProviderSpan,
  ResolvedProvider,
  TransportFacts,
} from "@/lib/engine/shared/types";
import type { Resolver, SsrfPolicy } from "@/lib/http/ssrf";

export type FetchFormat = "markdown" | "text" | "html";

/** Page facts, snake_case as they appear in the response's `metadata`. */
export interface PageMetadata {
  title?: string;
  byline?: string;
  published?: string;
  language?: string;
  canonical_url?: string;
  site_name?: string;
  description?: string;
  content_type?: string;
  /** PDF page count; for a Word document, the count Word last saved. */
  pages?: number;
  /** Presentation slide count. */
  slides?: number;
  /** The target's HTTP status when the provider reports it. */
  status?: number;
}

/** Cheap facts about the raw HTML that content checks need after extraction has thrown the shell away. */
export interface HtmlSignals {
  scripts: number;
  /** An empty SPA mount point (#root, #app, #__next, …). */
  emptyAppRoot: boolean;
}

/** What an adapter returns: the page's main content, at least as Markdown (plain text is valid Markdown). */
export interface FetchedDocument extends TransportFacts {
  markdown: string;
  /** The main content as HTML, when the source was HTML (format=html). */
  html?: string;
  title?: string;
  /** Where the content came from after redirects, when known. */
  finalUrl?: string;
  metadata: PageMetadata;
  signals?: HtmlSignals;
  /** An HTML page's absolute http(s) links, for the crawl engine. */
  links?: string[];
}

/** How the direct fetcher reaches the network; only it uses these. */
export interface NetworkPolicy {
  ssrf: SsrfPolicy;
  resolver?: Resolver;
  maxBytes?: number;
  /** Told of each request before it goes out, redirect hops included; throwing refuses it (a crawl's budget). */
  beforeRequest?: (url: URL) => void;
}

/** Everything one adapter call gets. Keys arrive here; adapters never read env or the database. */
export interface FetchCall {
  /** The target page, already checked against the SSRF policy's static rules. */
  url: URL;
  format: FetchFormat;
  apiKey?: string;
  baseUrl: string;
  /** Provider-specific settings the caller resolved (e.g. Bright Data's zone). */
  settings: Readonly<Record<string, string>>;
  network: NetworkPolicy;
  /** Aborts on the step timeout or the overall deadline, whichever comes first. */
  signal: AbortSignal;
}

export interface FetchProvider extends ProviderRegistration {
  /**
   * The step requests the target itself (the direct fetcher): the HTTP status it reports is the site's own
   * answer, which may settle the fetch (origin-verdict.ts). Other steps report statuses of their own APIs.
   */
  fetchesOrigin?: true;
  /** Domain routes only: the URLs this provider handles; they run before the waterfall. Never throws. */
  handles?(url: URL): boolean;
  /**
   * Domain routes only: why a URL on the route's site is refused outright (a malformed percent escape,
   * a `.` or `..` segment, encoded or not), so the fetch input is invalid whichever steps would run.
   */
  refuses?(url: URL): string | undefined;
  /** Domain routes only: a small, stable page of the route's site, which a check of the provider fetches. */
  probeUrl?: string;
  /** Env variables for provider-specific settings, by setting name (e.g. { zone: "BRIGHTDATA_ZONE" }). */
  settingsEnv?: Readonly<Record<string, string>>;
  fetch(call: FetchCall): Promise<FetchedDocument>;
}

/** A fetch provider as the caller (services layer) resolved it. */
export interface FetchProviderEntry extends ResolvedProvider<FetchProvider> {
  settings?: Readonly<Record<string, string>>;
}

/** Why a step produced no usable page: transport failures plus the content checks' verdicts. */
export type FetchFailureReason =
  | FailureReason
  | "unsupported_content_type"
  | "bot_challenge"
  | "login_wall"
  | "cookie_wall"
  | "paywall"
  | "js_shell"
  | "too_short";

export interface FetchFailure {
  provider: ProviderId;
  reason: FetchFailureReason;
  message?: string;
  status?: number;
  duration_ms: number;
}

export type FetchSpan = ProviderSpan<"fetch">;
