"use client";

import { Telescope } from "lucide-react";
import { type ComponentType, type ReactNode, useState } from "react";
import { Waterfall } from "@/components/dashboard/traces/waterfall";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { FormMessage } from "@/components/ui/form-message";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { RestRoute } from "@/lib/dashboard/curl-command";
import { formatDuration } from "@/lib/dashboard/format";
import type {
  PlaygroundResult,
  PlaygroundTool,
  PlaygroundToolOption,
} from "@/lib/dashboard/playground-events";
import { CopyAsCurl } from "./copy-curl";
import { RecentResearch, ResearchJob } from "./research-job";
import { RunSummary } from "./run-summary";
import { type FieldErrors, type ProviderChoice, ResearchForm, type ToolFormProps } from "./tool-forms";
import { resultView, viewOf } from "./tool-views";
import { useEstimate } from "./use-estimate";
import { type RunState, usePlaygroundRun } from "./use-playground-run";
import { useResearch } from "./use-research";

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

function Results({
  result,
  onReadOn,
}: {
  result: PlaygroundResult;
  onReadOn: (url: string, offset: number) => void;
}) {
  const { Result } = resultView(result);
  return <Result response={result.response} onReadOn={onReadOn} />;
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

/**
 * Pick a tool and its options, run it, watch the providers finish, then read the fused results; or start a
 * research job and watch it in the background.
 */
export function Playground({
  tools,
  researchProviders,
  researchRoute,
  apiBase,
}: {
  /** The table's tools the playground offers, in its order. */
  tools: readonly PlaygroundToolOption[];
  /** The search providers a research job may use (its tab is its own: a job is no single run). */
  researchProviders: readonly ProviderChoice[];
  /** Research's REST route, for "Copy as curl". */
  researchRoute: RestRoute;
  /** The deployment's base URL, for "Copy as curl". */
  apiBase: string;
}) {
  // The Research tab is always there; the table's first playground tool opens when there is one.
  const [tool, setTool] = useState<PlaygroundTool>(tools[0]?.name ?? "research");
  const { state, run } = usePlaygroundRun();
  const research = useResearch(tool === "research");
  // The input of the last job started here, for its curl (a job picked from the list has none).
  const [researchInput, setResearchInput] = useState<Record<string, unknown> | null>(null);
  const errors = fieldErrors(state);
  const runRoute = tools.find((option) => option.name === state.tool)?.rest;

  return (
    <div className="space-y-6">
      <Card>
        <CardContent className="pt-5">
          <Tabs value={tool} onValueChange={(value) => setTool(value as PlaygroundTool)}>
            <TabsList aria-label="Tool">
              {tools.map((option) => {
                const { label, icon: Icon } = viewOf(option.name, option.title);
                return (
                  <TabsTrigger key={option.name} value={option.name}>
                    <Icon aria-hidden /> {label}
                  </TabsTrigger>
                );
              })}
              <TabsTrigger value="research">
                <Telescope aria-hidden /> Research
              </TabsTrigger>
            </TabsList>
            {tools.map((option) => {
              const { name } = option;
              return (
                <TabsContent key={name} value={name}>
                  <EstimatedForm
                    tool={name}
                    Form={viewOf(name, option.title).Form}
                    providers={option.providers}
                    errors={errors}
                    running={state.status === "running"}
                    onRun={(input, expected) => run(name, input, expected)}
                  />
                </TabsContent>
              );
            })}
            <TabsContent value="research">
              <EstimatedForm
                tool="research"
                Form={ResearchForm}
                providers={researchProviders}
                errors={research.state.problem?.fieldErrors ?? {}}
                running={research.state.starting}
                onRun={(input) => {
                  setResearchInput(input);
                  research.start(input);
                }}
              />
            </TabsContent>
          </Tabs>
        </CardContent>
      </Card>

      {tool === "research" ? (
        <ResearchJobs
          research={research}
          curl={
            researchInput ? (
              <CopyAsCurl apiBase={apiBase} route={researchRoute} input={researchInput} />
            ) : null
          }
        />
      ) : (
        <RunResults
          state={state}
          run={run}
          curl={runRoute ? <CopyAsCurl apiBase={apiBase} route={runRoute} input={state.input} /> : null}
        />
      )}
    </div>
  );
}

/** A tool's form with the estimate of its input beside its button, asked for as the input changes. */
function EstimatedForm({
  tool,
  Form,
  ...props
}: Omit<ToolFormProps, "estimate" | "onInputChange"> & {
  tool: PlaygroundTool;
  Form: ComponentType<ToolFormProps>;
}) {
  const { estimate, request } = useEstimate(tool);
  return <Form {...props} estimate={estimate} onInputChange={request} />;
}

/** The job on show (with the curl that starts it, when started here) and the recent jobs under the Research tab. */
function ResearchJobs({ research, curl }: { research: ReturnType<typeof useResearch>; curl: ReactNode }) {
  const { job, recent, cancelling, problem } = research.state;
  return (
    <>
      {curl}
      {problem?.message ? (
        <FormMessage state={problem} className="rounded-md border border-destructive/40 p-3" />
      ) : null}
      {job ? (
        <Card>
          <CardContent className="pt-5">
            <ResearchJob job={job} cancelling={cancelling} onCancel={research.cancel} />
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle className="text-base">Recent research jobs</CardTitle>
        </CardHeader>
        <CardContent>
          <RecentResearch jobs={recent} current={job?.id} onOpen={research.open} />
        </CardContent>
      </Card>
    </>
  );
}

/** The last run's live progress, its error or its results, and the curl that makes the same call. */
function RunResults({ state, run, curl }: ReturnType<typeof usePlaygroundRun> & { curl: ReactNode }) {
  const errors = fieldErrors(state);
  const reported = new Set(state.spans.map((s) => s.provider));
  const cacheHit = reported.has("*");
  const running =
    state.status === "running" && !cacheHit ? state.expected.filter((p) => !reported.has(p)) : [];
  // The next window of a fetched page: the same format and size, served from the cache.
  const readOn = (url: string, offset: number) =>
    run("fetch", { url, offset, format: state.input.format, max_chars: state.input.max_chars }, []);

  return (
    <>
      {curl}
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
            <Results result={state.result} onReadOn={readOn} />
          </CardContent>
        </Card>
      ) : null}
    </>
  );
}
