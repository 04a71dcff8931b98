import type { PaperSearchResult } from "@/lib/engine/papers/run-paper-search";
import { plural } from "@/lib/wording";

/** Human-readable paper search output for the CLI: numbered papers with ids and links, then provider outcomes. */
export function formatPaperResult(result: PaperSearchResult): string {
  const lines = result.results.map((p, i) => {
    const authors =
      p.authors.length > 3 ? `${p.authors.slice(0, 3).join(", ")} et al.` : p.authors.join(", ");
    const where = [p.venue, p.year].filter((part) => part !== null).join(", ");
    const ids = [
      p.doi && `doi:${p.doi}`,
      p.arxiv_id && `arXiv:${p.arxiv_id}`,
      p.pmid && `PMID:${p.pmid}`,
      p.citation_count !== null && plural(p.citation_count, "citation"),
    ].filter(Boolean);
    const sources = p.sources.map((s) => `${s.provider}#${s.rank}`).join(" ");
    return [
      `${i + 1}. ${p.title}`,
      `   ${authors}${where ? ` — ${where}` : ""}`,
      ids.length > 0 ? `   ${ids.join(" · ")}` : undefined,
      p.url ? `   ${p.url}` : undefined,
      p.pdf_url ? `   pdf: ${p.pdf_url}` : undefined,
      `   ${sources}`,
    ]
      .filter((line) => line !== undefined)
      .join("\n");
  });
  const ok = result.providers_succeeded.map((p) => `${p.provider} (${p.count} in ${p.duration_ms} ms)`);
  const failed = result.providers_failed.map(
    (p) => `${p.provider}: ${p.reason}${p.status ? ` ${p.status}` : ""}`,
  );
  lines.push("", `providers ok: ${ok.join(", ") || "none"}`);
  if (failed.length > 0) lines.push(`providers failed: ${failed.join(", ")}`);
  lines.push(`${plural(result.results.length, "paper")} in ${result.duration_ms} ms`);
  return lines.join("\n");
}
