/**
 * When the site itself settles a fetch: a status that says the page does not exist, answered to the step
 * that requests the target itself (the direct fetcher). No other step is tried — a paid provider would only
 * be paid to render the site's error page — and the URL's error carries the status.
 *
 * Definitive: 404 Not Found and 410 Gone. Not definitive, so the waterfall goes on: 401 and 403 (bot walls
 * and blocks of datacenter addresses, which providers' own networks pass), 429 (this server's address rate
 * limited), 451 (legal blocks are often by country), 5xx (transient, or a bot wall answering 503), other
 * 4xx (often an answer to the request's own headers); and a 404 page that is a bot challenge or a
 * JavaScript-only shell (a single-page app answering its own routes through a 404 fallback), which the
 * direct fetcher leaves to the content checks.
 */
import type { FetchFailure, FetchProviderEntry } from "./types";

const DEFINITIVE_STATUSES: ReadonlySet<number> = new Set([404, 410]);

/** Whether this failed step is the site's definitive answer: the fetch ends with it. */
export function isOriginVerdict(entry: FetchProviderEntry, failure: FetchFailure): boolean {
  return (
    entry.provider.fetchesOrigin === true &&
    failure.reason === "http_error" &&
    failure.status !== undefined &&
    DEFINITIVE_STATUSES.has(failure.status)
  );
}
