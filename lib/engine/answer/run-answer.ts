/**
 * answer engine entry point: validated input + the caller's answer providers in, every answer side by
 * side, where they agree, per-provider failures and spans out. No database, no env: keys, base URLs,
 * admission and the grounding web search come from the caller. Provider failures are reported, never
 * thrown; the call returns by `timeout_ms` even when a provider ignores its abort signal, and answers
 * arriving later are dropped. Invalid input throws a ZodError.
 */
import { linkedAbort } from "@/lib/engine/shared/abort";
import { callIsolated, type IsolatedOutcome } from "@/lib/engine/shared/isolated-call";
import { selectEntries } from "@/lib/engine/shared/select-entries";
import type { AdmitHook, ProviderFailure } from "@/lib/engine/shared/types";
import { computeAgreement } from "./agreement";
import { answerPricing } from "./answer-pricing";
import { type AnswerInputRaw, answerInputSchema } from "./input";
import type {
  Agreement,
  AnswerEntry,
  AnswerItem,
  AnswerProgress,
  AnswerSpan,
  GroundingSearch,
  GroundingSource,
  ProviderAnswer,
} from "./types";

export interface RunAnswerArgs {
  /** Validated here (answerInputSchema); already-validated input passes unchanged. */
  input: AnswerInputRaw;
  /** Providers resolved by the caller; duplicates of an id after the first are ignored. */
  providers: readonly AnswerEntry[];
  /** The caller's cancellation (client gone); providers still running are reported as timeouts. */
  signal?: AbortSignal;
  admit?: AdmitHook;
  /** Our own web search, run once per call for grounded providers (Gemini, OpenAI-compatible). */
  groundingSearch?: GroundingSearch;
  /** Called as each provider completes; errors it throws are ignored. */
  onProgress?: (event: AnswerProgress) => void;
}

export interface AnswerResult {
  query: string;
  answers: AnswerItem[];
  agreement: Agreement;
  providers_failed: ProviderFailure[];
  spans: AnswerSpan[];
  /** True when any provider failed, timed out or was refused. */
  partial: boolean;
  duration_ms: number;
}

type Outcome = IsolatedOutcome<AnswerEntry, ProviderAnswer, "answer">;

export async function runAnswer(args: RunAnswerArgs): Promise<AnswerResult> {
  const origin = performance.now();
  const input = answerInputSchema.parse(args.input);
  const { entries, missing } = selectEntries(args.providers, input.providers);
  const deadline = linkedAbort(
    [args.signal],
    input.timeout_ms,
    `no answer before the ${input.timeout_ms} ms deadline`,
  );
  const grounding = sharedGrounding(input.query, args.groundingSearch, deadline.signal);
  const context = { kind: "answer" as const, deadline: deadline.signal, admit: args.admit, origin };
  let completed = 0;

  let outcomes: Outcome[];
  try {
    outcomes = await Promise.all(
      entries.map(async (entry): Promise<Outcome> => {
        const pricing = answerPricing(entry, input.query);
        const outcome = await callIsolated(
          {
            entry,
            invoke: (signal) =>
              entry.provider.answer({
                query: input.query,
                apiKey: entry.apiKey,
                baseUrl: entry.baseUrl,
                model: entry.model ?? entry.provider.defaultModel,
                signal,
                grounding,
              }),
            isResponse: isProviderAnswer,
            count: () => 1,
            ...(pricing && { pricing }),
          },
          context,
        );
        completed += 1;
        report(args.onProgress, progressEvent(outcome, completed, entries.length));
        return outcome;
      }),
    );
  } finally {
    deadline.dispose();
  }

  const answers = outcomes.flatMap((outcome): AnswerItem[] =>
    outcome.ok
      ? [
          {
            provider: outcome.entry.provider.id,
            model: outcome.response.model,
            answer: outcome.response.answer,
            citations: outcome.response.citations,
            duration_ms: outcome.success.duration_ms,
          },
        ]
      : [],
  );
  const providersFailed = [
    ...missing,
    ...outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.failure])),
  ];
  return {
    query: input.query,
    answers,
    agreement: computeAgreement(answers),
    providers_failed: providersFailed,
    spans: outcomes.map((outcome) => outcome.span),
    partial: providersFailed.length > 0,
    duration_ms: Math.round(performance.now() - origin),
  };
}

/**
 * One grounding search per call, started by the first grounded provider that asks and shared by the
 * rest; without a grounding search, grounded providers answer from the model alone.
 */
function sharedGrounding(
  query: string,
  search: GroundingSearch | undefined,
  deadline: AbortSignal,
): () => Promise<GroundingSource[]> {
  let pending: Promise<GroundingSource[]> | undefined;
  return () => {
    if (search === undefined) return Promise.resolve([]);
    pending ??= new Promise<GroundingSource[]>((resolve) => resolve(search(query, deadline)));
    return pending;
  };
}

function progressEvent(outcome: Outcome, completed: number, total: number): AnswerProgress {
  return outcome.ok
    ? {
        provider: outcome.entry.provider.id,
        outcome: "answered",
        duration_ms: outcome.success.duration_ms,
        completed,
        total,
      }
    : {
        provider: outcome.entry.provider.id,
        outcome: "failed",
        reason: outcome.failure.reason,
        duration_ms: outcome.failure.duration_ms,
        completed,
        total,
      };
}

function report(onProgress: RunAnswerArgs["onProgress"], event: AnswerProgress): void {
  if (onProgress === undefined) return;
  try {
    onProgress(event);
  } catch {
    // Progress is best effort: a failing listener (a closed MCP stream) must not fail the answer.
  }
}

function isProviderAnswer(value: unknown): value is ProviderAnswer {
  if (typeof value !== "object" || value === null) return false;
  if (!("answer" in value) || typeof value.answer !== "string" || value.answer.trim() === "") return false;
  if (!("model" in value) || typeof value.model !== "string") return false;
  if (!("citations" in value) || !Array.isArray(value.citations)) return false;
  return value.citations.every(
    (citation: unknown) =>
      typeof citation === "object" &&
      citation !== null &&
      "url" in citation &&
      typeof citation.url === "string" &&
      "title" in citation &&
      typeof citation.title === "string",
  );
}
