import {
  BookOpen,
  Braces,
  FileText,
  Globe,
  Image as ImageIcon,
  Layers,
  type LucideIcon,
  MessageSquareText,
  Network,
  Wrench,
} from "lucide-react";
import type { ComponentType } from "react";
import type { PlaygroundResult, PlaygroundTool } from "@/lib/dashboard/playground-events";
import { plural } from "@/lib/wording";
import { AnswerResults } from "./answer-results";
import { CrawlResult } from "./crawl-result";
import { ExtractResults } from "./extract-results";
import { FetchResult } from "./fetch-result";
import { ImageResults } from "./image-results";
import { PaperResults } from "./paper-results";
import { SearchResults, SimilarResults } from "./search-results";
import {
  AnswerForm,
  CrawlForm,
  FetchForm,
  ImageSearchForm,
  JsonInputForm,
  PaperSearchForm,
  type ToolFormProps,
  WebSearchForm,
} from "./tool-forms";

type ResponseOf<Name extends PlaygroundTool> = Extract<PlaygroundResult, { tool: Name }>["response"];

/** A tool's own face in the playground: its tab, its input form, its results and their count. */
export interface ToolView<Name extends PlaygroundTool = PlaygroundTool> {
  label: string;
  icon: LucideIcon;
  Form: ComponentType<ToolFormProps>;
  /** `onReadOn` fetches a page again from an offset (its next window), for views that page through one. */
  Result: ComponentType<{ response: ResponseOf<Name>; onReadOn: (url: string, offset: number) => void }>;
  /** What came back, counted, for the line above the results ("3 results"). */
  count(response: ResponseOf<Name>): string;
}

/**
 * The views of the table's tools (lib/tools/table.ts), keyed by their names. A playground tool without one
 * gets its title, a JSON input form and its response as JSON (lib/README.md, "Adding a tool"); the table
 * test holds every key to a tool the playground offers.
 */
export const TOOL_VIEWS: { [Name in PlaygroundTool]?: ToolView<Name> } = {
  web_search: {
    label: "Web search",
    icon: Globe,
    Form: WebSearchForm,
    Result: SearchResults,
    count: (response) =>
      plural(
        (response.results_by_query ?? [response]).reduce((sum, list) => sum + list.results.length, 0),
        "result",
      ),
  },
  fetch: {
    label: "Fetch",
    icon: FileText,
    Form: FetchForm,
    Result: FetchResult,
    count: (response) => plural(response.results?.length ?? 1, "page"),
  },
  crawl: {
    label: "Crawl",
    icon: Network,
    Form: CrawlForm,
    Result: CrawlResult,
    count: (response) => plural(response.pages.length, response.mode === "map" ? "URL" : "page"),
  },
  extract: {
    label: "Extract",
    icon: Braces,
    // Its input is mostly a JSON Schema: the JSON form fits it.
    Form: JsonInputForm,
    Result: ExtractResults,
    count: (response) => plural(response.results.length, "page"),
  },
  answer: {
    label: "Answer",
    icon: MessageSquareText,
    Form: AnswerForm,
    Result: AnswerResults,
    count: (response) => plural(response.answers.length, "answer"),
  },
  paper_search: {
    label: "Papers",
    icon: BookOpen,
    Form: PaperSearchForm,
    Result: PaperResults,
    count: (response) => plural(response.results.length, "paper"),
  },
  similar: {
    label: "Similar",
    icon: Layers,
    Form: JsonInputForm,
    Result: SimilarResults,
    count: (response) => plural(response.results.length, "page"),
  },
  image_search: {
    label: "Images",
    icon: ImageIcon,
    Form: ImageSearchForm,
    Result: ImageResults,
    count: (response) => plural(response.results.length, "image"),
  },
};

function JsonResult({ response }: { response: unknown }) {
  return (
    <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">{JSON.stringify(response, null, 2)}</pre>
  );
}

/** The view of a tool: its own, else its title, a JSON input form and the response as JSON. */
export function viewOf<Name extends PlaygroundTool>(name: Name, title: string): ToolView<Name> {
  return (
    TOOL_VIEWS[name] ?? {
      label: title,
      icon: Wrench,
      Form: JsonInputForm,
      Result: JsonResult,
      count: () => "Result",
    }
  );
}

/** The view a run's result is shown with (its label is not shown with a result, so the name stands in). */
export function resultView(result: PlaygroundResult): ToolView {
  // A result's tool and response belong together; TypeScript cannot follow that pairing through the map.
  return viewOf(result.tool, result.tool) as unknown as ToolView;
}
