import { plural } from "@/lib/wording";

/** A trace's result summary (counts, failures; its shape varies by tool) as one short line. */
export function describeSummary(summary: unknown): string {
  if (typeof summary !== "object" || summary === null) return "";
  const s = summary as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof s.results === "number") parts.push(plural(s.results, "result"));
  if (Array.isArray(s.answers)) parts.push(plural(s.answers.length, "answer"));
  if (typeof s.chars === "number") parts.push(`${plural(s.chars, "character")} via ${String(s.provider)}`);
  if (Array.isArray(s.failed) && s.failed.length > 0)
    parts.push(`${plural(s.failed.length, "provider")} failed`);
  return parts.join(" · ");
}
