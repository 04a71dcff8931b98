"use client";

import { BookOpen, FileText, Globe, MessageSquareText } from "lucide-react";
import { useState } from "react";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { FormMessage } from "@/components/ui/form-message";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { formatDuration } from "@/lib/dashboard/format";
import type { PlaygroundResult, PlaygroundTool } from "@/lib/dashboard/playground-events";
import { Waterfall } from "../traces/waterfall";
import { AnswerResults } from "./answer-results";
import { FetchResult } from "./fetch-result";
import { PaperResults } from "./paper-results";
import { RunSummary } from "./run-summary";
import { SearchResults } from "./search-results";
import {
  AnswerForm,
  FetchForm,
  type FieldErrors,
  PaperSearchForm,
  type ProviderChoice,
  WebSearchForm,
} from "./tool-forms";
import { type RunState, usePlaygroundRun } from "./use-playground-run";

const TOOLS = [
  { tool: "web_search", label: "Web search", icon: Globe, Form: WebSearchForm },
  { tool: "fetch", label: "Fetch", icon: FileText, Form: FetchForm },
  { tool: "answer", label: "Answer", icon: MessageSquareText, Form: AnswerForm },
  { tool: "paper_search", label: "Papers", icon: BookOpen, Form: PaperSearchForm },
] as const;

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
  }
}

function progressTitle(state: RunState): string {
  const elapsed = formatDuration(state.elapsedMs);
  if (state.status === "running") return `Providers · running… ${elapsed}`;
  return state.status === "done"
    ? `Providers · finished in ${elapsed}`
    : `Providers · failed after ${elapsed}`;
}

/** Pick a tool and its options, run it, watch the providers finish, then read the fused results. */
export function Playground({
  providers,
  canSeeTraces,
}: {
  providers: Readonly<Record<PlaygroundTool, readonly ProviderChoice[]>>;
  canSeeTraces: boolean;
}) {
  const [tool, setTool] = useState<PlaygroundTool>("web_search");
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
              {TOOLS.map(({ tool: value, label, icon: Icon }) => (
                <TabsTrigger key={value} value={value}>
                  <Icon aria-hidden /> {label}
                </TabsTrigger>
              ))}
            </TabsList>
            {TOOLS.map(({ tool: value, Form }) => (
              <TabsContent key={value} value={value}>
                <Form
                  providers={providers[value]}
                  errors={errors}
                  running={state.status === "running"}
                  onRun={(input, expected) => run(value, input, value === "fetch" ? [] : expected)}
                />
              </TabsContent>
            ))}
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
            <RunSummary result={state.result} canSeeTraces={canSeeTraces} />
          </CardHeader>
          <CardContent>
            <Results result={state.result} />
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
