/**
 * The research report: `# <question>`, a partial note when the job stopped early, the body with `[n]`
 * citations, then `## Sources` listing exactly the pages the body cites (renumbered in citation order,
 * with the provider ranks that found each). The body is the model's when a model is configured and its
 * reply cites at least one page; otherwise (no model, a failed or refused call, a reply citing nothing
 * valid) the extractive writer's. Pages without text are never numbered, so nothing cites them.
 */
import type { ProviderFailure } from "@/lib/engine/shared/types";
import { callModel, type ModelSpan, unusable } from "./call-model";
import { citeSources, sourceLine } from "./citations";
import { extractiveBody } from "./extractive";
import { cleanReportBody, reportPrompt } from "./report-prompt";
import type { ReadPage, ResearchModel, ResearchSource } from "./types";

export const NOTHING_FOUND = "Nothing was found: none of the pages read had usable text for this question.";

const EXTRACTIVE_INTRO =
  "The sentences of the sources that bear most on the question, most relevant first (quoted, not summarised):";

export interface ResearchReport {
  report: string;
  sources: ResearchSource[];
  writer: "model" | "extractive";
  span?: ModelSpan;
  failure?: ProviderFailure;
}

export async function writeReport(args: {
  question: string;
  pages: readonly ReadPage[];
  model?: ResearchModel;
  deadline: AbortSignal;
  origin: number;
  partialReason?: string;
}): Promise<ResearchReport> {
  const { question, model, partialReason } = args;
  const pages = args.pages.filter((page) => page.content.trim() !== "");
  const assemble = (cited: ReturnType<typeof citeSources>) => assembleReport(question, cited, partialReason);
  // No text to write from: say so rather than spend a model call.
  if (pages.length === 0) {
    return { report: assemble({ body: NOTHING_FOUND, sources: [] }), sources: [], writer: "extractive" };
  }

  let fallback: { span?: ModelSpan; failure?: ProviderFailure } = {};
  if (model !== undefined) {
    const outcome = await callModel(model, reportPrompt(question, pages), args);
    if (outcome.ok) {
      const cited = citeSources(cleanReportBody(outcome.text), pages);
      if (cited.sources.length > 0) {
        return { report: assemble(cited), sources: cited.sources, writer: "model", span: outcome.span };
      }
      fallback = unusable(outcome, "the model's report cited none of the sources");
    } else {
      fallback = { span: outcome.span, failure: outcome.failure };
    }
  }

  const findings = extractiveBody(question, pages);
  const cited =
    findings === ""
      ? { body: NOTHING_FOUND, sources: [] }
      : citeSources(`${EXTRACTIVE_INTRO}\n\n${findings}`, pages);
  return { report: assemble(cited), sources: cited.sources, writer: "extractive", ...fallback };
}

function assembleReport(
  question: string,
  { body, sources }: { body: string; sources: readonly ResearchSource[] },
  partialReason: string | undefined,
): string {
  const parts = [`# ${oneLine(question)}`];
  if (partialReason !== undefined && partialReason.trim() !== "") {
    parts.push(`> Partial report: ${oneLine(partialReason)}`);
  }
  parts.push(body);
  if (sources.length > 0) parts.push("## Sources", sources.map(sourceLine).join("\n"));
  return `${parts.join("\n\n")}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}
