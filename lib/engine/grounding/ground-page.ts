/**
 * One result's grounded snippet: fetch its page with the first fetch step, let the model describe what
 * the page says about the query, and when the page is unusable — rejected by the fetch engine's content
 * checks (challenge, login, cookie or paywall, JS shell) before the model call, or NO_CONTENT from the
 * model after it — try once more through the next fetch step. Otherwise the fused snippet stays.
 */
import type { FusedResult } from "@/lib/engine/search/types";
import type { AdmitHook } from "@/lib/engine/shared/types";
import { PAGE_CHARS, snippetPrompt } from "./prompt";
import { fetchForStage, fetchStepOrder, INVALID_URL, isTransient } from "./stage-fetch";
import type { CompleteChat, GroundedPage, ModelEntry, PageAccess, PageProblem, StageSpan } from "./types";
import { writeSnippet } from "./write-snippet";

/** The first fetch step, then one retry through a different one. */
const MAX_ATTEMPTS = 2;

export interface GroundingCall extends PageAccess {
  query: string;
  model: ModelEntry;
  /** The model's wire (the caller's). */
  complete: CompleteChat;
  admitModel?: AdmitHook;
  pageTimeoutMs: number;
}

export interface PageGrounding {
  page: GroundedPage;
  snippet?: string;
  spans: StageSpan[];
}

const NO_CONTENT_PROBLEM: PageProblem = {
  reason: "no_content",
  message: "the model found no usable content on the page",
  transient: false,
};

const NO_FETCH_STEP: PageProblem = {
  reason: "no_fetch_provider",
  message: "no fetch step handles this URL",
  transient: false,
};

const PAGE_DEADLINE: PageProblem = {
  reason: "timeout",
  message: "no grounded snippet before the page's deadline",
  transient: true,
};

/** One fetch step's try: the snippet it grounded, or the problem and whether another step may help. */
type StepGrounding = { snippet: string; fetchedBy: string } | { problem: PageProblem; tryNext: boolean };

export async function groundPage(
  result: FusedResult,
  call: GroundingCall,
  deadline: AbortSignal,
): Promise<PageGrounding> {
  const spans: StageSpan[] = [];
  const fallback = (attempts: number, problem: PageProblem): PageGrounding => ({
    page: { url: result.url, snippet_source: "fallback", attempts, problem },
    spans,
  });
  if (!URL.canParse(result.url)) return fallback(0, INVALID_URL);
  const steps = fetchStepOrder(call.fetchEntries, new URL(result.url)).slice(0, MAX_ATTEMPTS);
  let problem = NO_FETCH_STEP;
  let attempts = 0;
  for (const step of steps) {
    if (deadline.aborted) {
      problem = PAGE_DEADLINE;
      break;
    }
    attempts += 1;
    const tried = await groundThrough(step, result, call, deadline, spans);
    if ("snippet" in tried) {
      return {
        page: { url: result.url, snippet_source: "grounded", fetched_by: tried.fetchedBy, attempts },
        snippet: tried.snippet,
        spans,
      };
    }
    problem = tried.problem;
    if (!tried.tryNext) break;
  }
  return fallback(attempts, problem);
}

/** The page through one fetch step, then the model's snippet of it; the spans of both join `spans`. */
async function groundThrough(
  step: string,
  result: FusedResult,
  call: GroundingCall,
  deadline: AbortSignal,
  spans: StageSpan[],
): Promise<StepGrounding> {
  const fetched = await fetchForStage(
    {
      url: result.url,
      format: "text",
      maxChars: PAGE_CHARS,
      step,
      signal: deadline,
      timeoutMs: call.pageTimeoutMs,
    },
    call,
  );
  spans.push(...fetched.spans);
  if (!fetched.outcome.ok) {
    const { problem, refused } = fetched.outcome;
    // A refused target (SSRF policy) is never tried elsewhere, as in the fetch engine; a provider that
    // refused the request (`blocked`) is another step's chance.
    return { problem, tryNext: refused !== true };
  }
  const { page } = fetched.outcome;
  const written = await writeSnippet(
    call,
    snippetPrompt({
      query: call.query,
      url: page.final_url,
      title: page.title || result.title,
      text: page.content,
    }),
    { deadline, admit: call.admitModel, origin: call.origin },
  );
  spans.push(written.span);
  if (!written.ok) {
    // The model itself failed: another copy of the page would not help.
    const { failure } = written;
    return {
      problem: {
        reason: `llm_${failure.reason}`,
        message: failure.message ?? failure.reason,
        transient: isTransient(failure),
      },
      tryNext: false,
    };
  }
  if ("noContent" in written) return { problem: NO_CONTENT_PROBLEM, tryNext: true };
  return { snippet: written.snippet, fetchedBy: page.provider };
}
