import { z } from "zod";
import { MAX_CHARS_CAP } from "@/lib/engine/fetch/input";
import { fetchPaperPdf } from "@/lib/engine/papers/pdf";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { fetchPage } from "@/lib/services/fetch/fetch-page";

export const paperFullTextInput = z
  .strictObject({
    /** An arXiv id (`1706.03762`, `2401.01234v2`); its PDF is always at arxiv.org/pdf/<id>. */
    arxiv_id: z
      .string()
      .trim()
      .regex(/^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})(v\d+)?$/, "an arXiv id such as 1706.03762")
      .optional(),
    /** The open PDF link of a paper_search result (`pdf_url`). */
    pdf_url: z.url({ protocol: /^https?$/ }).optional(),
    format: z.enum(["markdown", "text"]).default("text"),
    max_chars: z.number().int().min(1).max(MAX_CHARS_CAP).optional(),
  })
  .refine((v) => v.arxiv_id !== undefined || v.pdf_url !== undefined, {
    message: "give arxiv_id or pdf_url",
  });

/**
 * paper_fetch: a paper's full text from its PDF, through the tenant's fetch path (SSRF guard, budgets,
 * cache, provider waterfall), so a paper found by paper_search can be read in the same session.
 */
export async function paperFullText({ ctx, input }: VerbArgs<TenantContext, typeof paperFullTextInput>) {
  assertScope(ctx, "papers");
  const { arxiv_id, pdf_url, format, max_chars } = parseInput(paperFullTextInput, input);
  const fetched = await fetchPaperPdf({ arxiv_id: arxiv_id ?? null, pdf_url: pdf_url ?? null }, (url) =>
    fetchPage({ ctx, input: { url, format, max_chars } }),
  );
  if (!fetched) throw new ServiceError("not_found", "this paper has no known PDF");
  return fetched.content;
}
