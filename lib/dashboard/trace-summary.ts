/** A trace's result summary (counts, failures; its shape varies by tool) as one short line. */
export function describeSummary(summary: unknown): string {
  if (typeof summary !== "object" || summary === null) return "";
  const s = summary as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof s.results === "number") parts.push(`${s.results} results`);
  if (Array.isArray(s.answers)) parts.push(`${s.answers.length} answers`);
  if (typeof s.chars === "number") parts.push(`${s.chars} characters via ${String(s.provider)}`);
  if (Array.isArray(s.failed) && s.failed.length > 0) parts.push(`${s.failed.length} providers failed`);
  return parts.join(" · ");
}
