"use client";

import { BookOpen, FileText, Globe, type LucideIcon, MessageSquareText, Wrench } from "lucide-react";
import { type ComponentType, useState } from "react";
import { Waterfall } from "@/components/dashboard/traces/waterfall";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { FormMessage } from "@/components/ui/form-message";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { formatDuration } from "@/lib/dashboard/format";
import type {
  PlaygroundResult,
  PlaygroundTool,
  PlaygroundToolOption,
} from "@/lib/dashboard/playground-events";
import { AnswerResults } from "./answer-results";
import { FetchResult } from "./fetch-result";
import { PaperResults } from "./paper-results";
import { RunSummary } from "./run-summary";
import { SearchResults } from "./search-results";
import {
  AnswerForm,
  FetchForm,
  type FieldErrors,
  JsonInputForm,
  PaperSearchForm,
  type ToolFormProps,
  WebSearchForm,
} from "./tool-forms";
import { type RunState, usePlaygroundRun } from "./use-playground-run";

interface ToolTab {
  label: string;
  icon: LucideIcon;
  Form: ComponentType<ToolFormProps>;
}

/** Tools with a form of their own; any other tool of the table gets its title and a JSON input. */
const TABS: Partial<Record<PlaygroundTool, ToolTab>> = {
  web_search: { label: "Web search", icon: Globe, Form: WebSearchForm },
  fetch: { label: "Fetch", icon: FileText, Form: FetchForm },
  answer: { label: "Answer", icon: MessageSquareText, Form: AnswerForm },
  paper_search: { label: "Papers", icon: BookOpen, Form: PaperSearchForm },
};

const tabOf = (tool: PlaygroundToolOption): ToolTab =>
  TABS[tool.name] ?? { label: tool.title, icon: Wrench, Form: JsonInputForm };

/** Schema issues of an invalid_input error, by the first segment of their path (the form's field names). */
function fieldErrors(state: RunState): FieldErrors {
  const details = state.error?.code === "invalid_input" ? state.error.details : undefined;
  if (!Array.isArray(details)) return {};
  const errors: FieldErrors = {};
  for (const issue of details as Array<{ path?: string; message?: string }>) {
    const field = issue.path?.split(".")[0] || "query";
    errors[field] ??= issue.message;
  }
  return errors;
}

function Results({ result }: { result: PlaygroundResult }) {
  switch (result.tool) {
    case "web_search":
      return <SearchResults response={result.response} />;
    case "fetch":
      return <FetchResult response={result.response} />;
    case "answer":
      return <AnswerResults response={result.response} />;
    case "paper_search":
      return <PaperResults response={result.response} />;
    default:
      return (
        <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">
          {JSON.stringify(result.response, null, 2)}
        </pre>
      );
  }
}

/**
 * A run states one duration: the clock ticks while it runs, and once it is done the summary above the
 * results gives the call's own (server-measured) time, so this title gives none.
 */
function progressTitle(state: RunState): string {
  const elapsed = formatDuration(state.elapsedMs);
  if (state.status === "running") return `Providers · running… ${elapsed}`;
  return state.status === "done" ? "Providers · done" : `Providers · failed after ${elapsed}`;
}

/** Pick a tool and its options, run it, watch the providers finish, then read the fused results. */
export function Playground({
  tools,
}: {
  /** The table's tools the playground offers, in its order. */
  tools: readonly PlaygroundToolOption[];
}) {
  const [tool, setTool] = useState<PlaygroundTool>(tools[0]?.name ?? "web_search");
  const { state, run } = usePlaygroundRun();
  const errors = fieldErrors(state);
  const reported = new Set(state.spans.map((s) => s.provider));
  const cacheHit = reported.has("*");
  const running =
    state.status === "running" && !cacheHit ? state.expected.filter((p) => !reported.has(p)) : [];

  return (
    <div className="space-y-6">
      <Card>
        <CardContent className="pt-5">
          <Tabs value={tool} onValueChange={(value) => setTool(value as PlaygroundTool)}>
            <TabsList aria-label="Tool">
              {tools.map((option) => {
                const { label, icon: Icon } = tabOf(option);
                return (
                  <TabsTrigger key={option.name} value={option.name}>
                    <Icon aria-hidden /> {label}
                  </TabsTrigger>
                );
              })}
            </TabsList>
            {tools.map((option) => {
              const { Form } = tabOf(option);
              const { name } = option;
              return (
                <TabsContent key={name} value={name}>
                  <Form
                    providers={option.providers}
                    errors={errors}
                    running={state.status === "running"}
                    onRun={(input, expected) => run(name, input, name === "fetch" ? [] : expected)}
                  />
                </TabsContent>
              );
            })}
          </Tabs>
        </CardContent>
      </Card>

      {state.status === "running" || state.spans.length > 0 ? (
        <Card aria-live="polite" aria-busy={state.status === "running"}>
          <CardHeader>
            <CardTitle className="text-base">{progressTitle(state)}</CardTitle>
          </CardHeader>
          <CardContent>
            {state.spans.length === 0 && running.length === 0 ? (
              <p className="text-sm text-muted-foreground">Waiting for the first step…</p>
            ) : (
              <Waterfall
                spans={state.spans}
                running={running}
                elapsedMs={state.status === "running" ? state.elapsedMs : 0}
              />
            )}
          </CardContent>
        </Card>
      ) : null}

      {state.status === "failed" && state.error ? (
        <FormMessage
          state={{
            status: "error",
            message: Object.keys(errors).length > 0 ? "Check the highlighted fields." : state.error.message,
          }}
          className="rounded-md border border-destructive/40 p-3"
        />
      ) : null}

      {state.result ? (
        <Card>
          <CardHeader>
            <RunSummary result={state.result} />
          </CardHeader>
          <CardContent>
            <Results result={state.result} />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
