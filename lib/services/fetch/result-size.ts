/**
 * How much page content one tool result carries, per surface. Several MCP clients cap a tool result near
 * 25,000 tokens and some hand the model both the text content and structuredContent, so MCP results are
 * sized for twice their content: 25,000 characters is about 6,000 tokens of English (~4 characters a
 * token) and stays under 25,000 tokens for both copies even for dense code or markup (~2 characters a
 * token). REST, the playground and the CLI keep the larger defaults their callers already rely on.
 */
import { DEFAULT_MAX_CHARS } from "@/lib/engine/fetch/input";
import type { Surface } from "@/lib/pipeline/capabilities";

/** fetch's `max_chars` on MCP when the call names none. */
export const MCP_MAX_CHARS = 25_000;

/** include_content: the pages' content together, each page trimmed so the sum fits. */
export const MCP_CONTENT_TOTAL_CHARS = 25_000;
const CONTENT_TOTAL_CHARS = 100_000;

export function defaultMaxChars(surface: Surface): number {
  return surface === "mcp" ? MCP_MAX_CHARS : DEFAULT_MAX_CHARS;
}

export function contentTotalChars(surface: Surface): number {
  return surface === "mcp" ? MCP_CONTENT_TOTAL_CHARS : CONTENT_TOTAL_CHARS;
}
