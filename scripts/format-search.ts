import type { SearchResult } from "@/lib/engine/search/run-search";
import { plural } from "@/lib/wording";

/** Human-readable search output for the CLI: numbered results with URLs, then provider outcomes. */
export function formatSearchResult(result: SearchResult): string {
  const lines = result.results.map((r, i) => {
    const sources = r.sources.map((s) => `${s.provider}#${s.rank}`).join(" ");
    return `${i + 1}. ${r.title}\n   ${r.url}\n   ${r.snippet}\n   score ${r.score.toFixed(4)} · ${sources}`;
  });
  const ok = result.providers_succeeded.map((p) => `${p.provider} (${p.count} in ${p.duration_ms} ms)`);
  const failed = result.providers_failed.map(
    (p) => `${p.provider}: ${p.reason}${p.status ? ` ${p.status}` : ""}`,
  );
  lines.push("", `providers ok: ${ok.join(", ") || "none"}`);
  if (failed.length > 0) lines.push(`providers failed: ${failed.join(", ")}`);
  lines.push(`${plural(result.results.length, "result")} in ${result.duration_ms} ms`);
  return lines.join("\n");
}
