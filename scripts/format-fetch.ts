import type { FetchResult } from "@/lib/engine/fetch/run-fetch";
import { plural } from "@/lib/wording";

/** Human-readable fetch output for the CLI: a header with title, URL and provider, the content, then step outcomes. */
export function formatFetchResult(result: FetchResult): string {
  const { metadata } = result;
  const facts = [
    metadata.byline && `by ${metadata.byline}`,
    metadata.published && `published ${metadata.published}`,
    metadata.language && `lang ${metadata.language}`,
    metadata.pages !== undefined && plural(metadata.pages, "page"),
  ].filter(Boolean);
  const lines = [`# ${result.title || "(untitled)"}`, result.final_url];
  if (facts.length > 0) lines.push(facts.join(" · "));
  lines.push("", result.content, "");
  const failed = result.providers_failed.map(
    (f) => `${f.provider}: ${f.reason}${f.status ? ` ${f.status}` : ""}`,
  );
  lines.push(
    `provider: ${result.provider} (${result.format}, ${metadata.total_chars} chars${metadata.truncated ? ", truncated" : ""})`,
  );
  lines.push(`attempted: ${result.providers_attempted.join(" → ")}`);
  if (failed.length > 0) lines.push(`failed: ${failed.join(", ")}`);
  if (metadata.warning) lines.push(`warning: ${metadata.warning}`);
  for (const alternative of result.alternative_results ?? []) {
    lines.push(`second opinion: ${alternative.provider} (${alternative.metadata.total_chars} chars)`);
  }
  lines.push(`done in ${result.duration_ms} ms`);
  return lines.join("\n");
}
