import type { AnswerResult } from "@/lib/engine/answer/run-answer";
import { plural } from "@/lib/wording";

/** Human-readable answer output for the CLI: each answer with its sources, then agreement and failures. */
export function formatAnswerResult(result: AnswerResult): string {
  const sections = result.answers.map((a) => {
    const sources = a.citations.map((c, i) => `   [${i + 1}] ${c.title}\n       ${c.url}`);
    const heading = `## ${a.provider} (${a.model}, ${a.duration_ms} ms)`;
    return [heading, "", a.answer, ...(sources.length > 0 ? ["", "   sources:", ...sources] : [])].join("\n");
  });
  const lines = [...sections, ""];
  const shared = result.agreement.shared_citations;
  lines.push(
    shared.length > 0
      ? `agreement: ${plural(shared.length, "source")} cited by several answers\n${shared
          .map((s) => `  ${s.url} — ${s.providers.join(", ")}`)
          .join("\n")}`
      : `agreement: no source cited by more than one of ${plural(result.agreement.answers, "answer")}`,
  );
  const failed = result.providers_failed.map(
    (f) => `${f.provider}: ${f.reason}${f.status ? ` ${f.status}` : ""}`,
  );
  if (failed.length > 0) lines.push(`providers failed: ${failed.join(", ")}`);
  lines.push(`${plural(result.answers.length, "answer")} in ${result.duration_ms} ms`);
  return lines.join("\n");
}
