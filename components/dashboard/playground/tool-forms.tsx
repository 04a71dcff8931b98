"use client";

import { type FormEvent, type ReactNode, useState } from "react";
import { TimeRangeField } from "@/components/dashboard/time-range-field";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Field } from "@/components/ui/field";
import { FormFields } from "@/components/ui/form-fields";
import { inputClasses } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { formList, formNumber as number, formText as text } from "@/lib/dashboard/form-data";
import { formatUsdPrice } from "@/lib/dashboard/format";
import type { EstimateState } from "./use-estimate";

export interface ProviderChoice {
  id: string;
  name: string;
}

export type FieldErrors = Partial<Record<string, string>>;

export interface ToolFormProps {
  providers: readonly ProviderChoice[];
  errors: FieldErrors;
  running: boolean;
  /** The verb input built from the form, and the providers expected to report. */
  onRun(input: Record<string, unknown>, expected: readonly string[]): void;
  /** What the input as it stands would ask and cost, shown beside the button. */
  estimate?: EstimateState;
  /** The verb input built from the form after each change (for the estimate). */
  onInputChange?(input: Record<string, unknown>): void;
}

/** Providers named beside the button; more are counted. */
const NAMED_PROVIDERS = 4;

/** "Up to $0.013 · asks brave, tavily, duckduckgo", "Free · asks duckduckgo", "Estimating…". */
function estimateText({ status, estimate }: EstimateState): string | undefined {
  if (!estimate) return status === "pending" ? "Estimating…" : undefined;
  const cost = estimate.max_cost_usd === 0 ? "Free" : `Up to ${formatUsdPrice(estimate.max_cost_usd)}`;
  const named = estimate.providers.slice(0, NAMED_PROVIDERS).join(", ");
  const more = estimate.providers.length - NAMED_PROVIDERS;
  const asks =
    estimate.providers.length === 0 ? "asks no provider" : `asks ${named}${more > 0 ? ` +${more}` : ""}`;
  return `${cost} · ${asks}`;
}

/** The estimate beside the button: what the call would ask and the most it could cost, nothing called. */
function EstimateNote({ estimate }: { estimate?: EstimateState }) {
  const text = estimate && estimateText(estimate);
  if (!text) return null;
  return (
    <p
      className="text-sm text-muted-foreground"
      data-testid="run-estimate"
      aria-live="polite"
      aria-busy={estimate?.status === "pending"}
      title="The most this call could cost: every provider it may ask, asked and billed. Nothing is called to work it out."
    >
      {text}
    </p>
  );
}

const list = (form: FormData, name: string) =>
  text(form, name)
    ?.split(/[\s,]+/)
    .filter(Boolean);
/** The providers ticked, or undefined for "every available one". */
const picked = (form: FormData) => {
  const ids = formList(form, "providers");
  return ids.length > 0 ? ids : undefined;
};
const flag = (form: FormData, name: string) => (form.get(name) === "on" ? true : undefined);
/** Options the user left on "any" are not sent, so the verb's defaults apply. */
const option = (form: FormData, name: string) => {
  const value = text(form, name);
  return value === "any" ? undefined : value;
};

function ProviderPicker({
  providers,
  error,
  name = "providers",
}: {
  providers: readonly ProviderChoice[];
  error?: string;
  name?: string;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="text-sm font-medium">Providers</legend>
      <p className="text-xs text-muted-foreground">
        {providers.length === 0
          ? "No provider is available for this tool yet: add a key on the Provider keys page."
          : "Leave all unticked to use every available one."}
      </p>
      <div className="flex flex-wrap gap-x-4 gap-y-2">
        {providers.map((p) => (
          <div key={p.id} className="flex items-center gap-2">
            <Checkbox id={`${name}-${p.id}`} name={name} value={p.id} />
            <Label htmlFor={`${name}-${p.id}`} className="font-normal">
              {p.name}
            </Label>
          </div>
        ))}
      </div>
      {error ? <p className="text-xs font-medium text-destructive">{error}</p> : null}
    </fieldset>
  );
}

function CheckOption({ name, label }: { name: string; label: string }) {
  const id = `pg-${name}`;
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} name={name} />
      <Label htmlFor={id} className="font-normal">
        {label}
      </Label>
    </div>
  );
}

const NoCache = () => <CheckOption name="no_cache" label="Skip the cache" />;

/**
 * A tool's form: its fields, the button and the estimate beside it. Submitting runs the input `build` reads
 * from the fields (with the providers ticked, else `expected`, as the ones expected to report); every change
 * asks for the estimate of that input, once the field it needs (`main`) is filled in.
 */
function FormShell({
  tool: { running, errors, estimate, onRun, onInputChange },
  build,
  main,
  expected = [],
  onBuilt,
  submit = ["Run", "Running…"],
  children,
}: {
  tool: ToolFormProps;
  /** The verb input from the fields; undefined when they make none (JSON that is not an object). */
  build: (form: FormData) => Record<string, unknown> | undefined;
  /** The field an input needs before it is worth estimating: the query, the URL. */
  main?: string;
  expected?: readonly ProviderChoice[];
  /** Told whether a submitted form made an input. */
  onBuilt?: (made: boolean) => void;
  /** The button's label, idle and busy. */
  submit?: readonly [string, string];
  children: ReactNode;
}) {
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const input = build(form);
    onBuilt?.(input !== undefined);
    if (input) onRun(input, picked(form) ?? expected.map((p) => p.id));
  };
  const onChange = (event: FormEvent<HTMLFormElement>) => {
    const form = new FormData(event.currentTarget);
    const input = main === undefined || text(form, main) ? build(form) : undefined;
    if (input) onInputChange?.(input);
  };
  return (
    <form onSubmit={onSubmit} onChange={onChange} className="grid gap-4" noValidate>
      <FormFields idPrefix="pg" errors={errors}>
        {children}
      </FormFields>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <Button type="submit" disabled={running} aria-busy={running}>
          {running ? submit[1] : submit[0]}
        </Button>
        <EstimateNote estimate={estimate} />
      </div>
    </form>
  );
}

/**
 * A tool that takes a query and fans out to providers: the query, the provider picker, the tool's own
 * fields, and "skip the cache"; `build` reads the tool's own fields.
 */
function QueryToolForm({
  build,
  queryLabel = "Query",
  placeholder,
  children,
  ...tool
}: ToolFormProps & {
  build: (form: FormData) => Record<string, unknown>;
  queryLabel?: string;
  placeholder: string;
  children?: ReactNode;
}) {
  const input = (form: FormData) => ({
    query: text(form, "query") ?? "",
    ...build(form),
    providers: picked(form),
    no_cache: flag(form, "no_cache"),
  });
  return (
    <FormShell tool={tool} build={input} main="query" expected={tool.providers}>
      <TextField label={queryLabel} name="query" placeholder={placeholder} required autoComplete="off" />
      <ProviderPicker providers={tool.providers} error={tool.errors.providers} />
      {children}
      <NoCache />
    </FormShell>
  );
}

const MODES = [
  { value: "any", label: "The workspace's default" },
  { value: "auto", label: "Auto (the providers that add something)" },
  { value: "fanout", label: "Fan out (all at once)" },
  { value: "budget", label: "Budget (cheapest first)" },
  { value: "single", label: "Single (first that answers)" },
];

const TOPICS = [
  { value: "general", label: "Web" },
  { value: "news", label: "News" },
];

/** The query, or with more queries (separated by semicolons) all of them, merged when asked. */
const readQueries = (form: FormData) => {
  const query = text(form, "query") ?? "";
  const more = (text(form, "more_queries") ?? "")
    .split(";")
    .map((q) => q.trim())
    .filter(Boolean);
  // `query: undefined` takes back the one QueryToolForm reads: a call gives either query or queries.
  return more.length > 0
    ? { query: undefined, queries: [query, ...more], merge: flag(form, "merge") }
    : { query };
};

const readSearch = (form: FormData) => ({
  ...readQueries(form),
  topic: option(form, "topic"),
  language: text(form, "language"),
  max_results: number(form, "max_results"),
  mode: option(form, "mode"),
  time_range: option(form, "time_range"),
  include_domains: list(form, "include_domains"),
  exclude_domains: list(form, "exclude_domains"),
  lens: text(form, "lens"),
  grounded_snippets: flag(form, "grounded_snippets"),
  include_content: flag(form, "include_content"),
});

export function WebSearchForm(props: ToolFormProps) {
  return (
    <QueryToolForm {...props} build={readSearch} placeholder="e.g. rust async runtimes">
      <div className="grid gap-4 sm:grid-cols-3">
        <SelectField label="Mode" name="mode" defaultValue="any" options={MODES} />
        <TimeRangeField label="Time range" />
        <TextField label="Results" name="max_results" inputMode="numeric" defaultValue="10" />
      </div>
      <div className="grid gap-4 sm:grid-cols-[12rem_8rem_1fr]">
        <SelectField label="Topic" name="topic" defaultValue="general" options={TOPICS} />
        <TextField label="Language" name="language" placeholder="e.g. de" autoComplete="off" />
        <TextField
          label="More queries"
          hint="Up to 4 more, separated by semicolons: searched in the same call."
          name="more_queries"
          placeholder="e.g. tokio vs async-std; smol runtime"
          autoComplete="off"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Only these domains" name="include_domains" placeholder="e.g. docs.rs, github.com" />
        <TextField label="Never these domains" name="exclude_domains" placeholder="e.g. pinterest.com" />
      </div>
      <TextField
        label="Lens"
        hint="A named domain set: docs, academic, news, forums, code, or one of your workspace's."
        name="lens"
        placeholder="e.g. docs"
        autoComplete="off"
      />
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <CheckOption name="merge" label="Merge the queries into one list" />
        <CheckOption name="grounded_snippets" label="Grounded snippets (read the pages; needs a model)" />
        <CheckOption name="include_content" label="Include the top pages' content" />
      </div>
    </QueryToolForm>
  );
}

const FORMATS = [
  { value: "markdown", label: "Markdown" },
  { value: "text", label: "Plain text" },
  { value: "html", label: "HTML" },
];

export function FetchForm(tool: ToolFormProps) {
  const build = (form: FormData) => {
    const url = text(form, "url") ?? "";
    const more = list(form, "more_urls") ?? [];
    return {
      ...(more.length > 0 ? { urls: [url, ...more] } : { url }),
      format: option(form, "format"),
      offset: number(form, "offset"),
      max_chars: number(form, "max_chars"),
      no_cache: flag(form, "no_cache"),
    };
  };
  return (
    // The fetch waterfall tries its steps one after another; which ones is not known ahead.
    <FormShell tool={tool} build={build} main="url">
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <TextField
          label="URL"
          name="url"
          type="url"
          placeholder="e.g. https://example.com/article"
          required
        />
        <SelectField label="Format" name="format" defaultValue="markdown" options={FORMATS} />
      </div>
      <TextField
        label="More URLs"
        hint="Up to 19 more, separated by spaces or commas: fetched in parallel in one call."
        name="more_urls"
        placeholder="e.g. https://example.com/a https://example.com/b"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Offset"
          hint="Start at this character: a previous result's next offset."
          name="offset"
          inputMode="numeric"
          placeholder="0"
        />
        <TextField label="Characters" name="max_chars" inputMode="numeric" placeholder="50000" />
      </div>
      <NoCache />
    </FormShell>
  );
}

const CRAWL_MODES = [
  { value: "pages", label: "Pages (with Markdown)" },
  { value: "map", label: "Map (URLs and titles)" },
];

export function CrawlForm(tool: ToolFormProps) {
  const build = (form: FormData) => ({
    url: text(form, "url") ?? "",
    mode: option(form, "mode"),
    max_depth: number(form, "max_depth"),
    max_pages: number(form, "max_pages"),
    include_paths: list(form, "include_paths"),
    exclude_paths: list(form, "exclude_paths"),
    max_chars: number(form, "max_chars"),
    no_cache: flag(form, "no_cache"),
  });
  return (
    // Every page is read by the direct fetcher, one span each: none is known ahead.
    <FormShell tool={tool} build={build} main="url">
      <div className="grid gap-4 sm:grid-cols-[1fr_16rem]">
        <TextField
          label="Start URL"
          name="url"
          type="url"
          placeholder="e.g. https://docs.example.com/"
          required
        />
        <SelectField label="Mode" name="mode" defaultValue="pages" options={CRAWL_MODES} />
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          label="Depth"
          hint="Link hops from the start page, at most 5."
          name="max_depth"
          inputMode="numeric"
          placeholder="2"
        />
        <TextField
          label="Pages"
          hint="Pages: 10, at most 50. Map: 100, at most 500."
          name="max_pages"
          inputMode="numeric"
          placeholder="10"
        />
        <TextField
          label="Characters per page"
          hint="Pages mode; the whole result holds at most 100,000."
          name="max_chars"
          inputMode="numeric"
          placeholder="8000"
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Only these paths"
          hint="Globs on the URL path, separated by spaces or commas."
          name="include_paths"
          placeholder="e.g. /docs/*"
          autoComplete="off"
        />
        <TextField
          label="Never these paths"
          name="exclude_paths"
          placeholder="e.g. /blog/* /changelog"
          autoComplete="off"
        />
      </div>
      <NoCache />
    </FormShell>
  );
}

export function AnswerForm(props: ToolFormProps) {
  return (
    <QueryToolForm
      {...props}
      build={() => ({})}
      queryLabel="Question"
      placeholder="e.g. Which async runtime does Rust use most?"
    />
  );
}

const SORTS = [
  { value: "relevance", label: "Relevance" },
  { value: "date", label: "Newest first" },
];

const readPapers = (form: FormData) => ({
  sort: option(form, "sort"),
  year_from: number(form, "year_from"),
  year_to: number(form, "year_to"),
  open_access: flag(form, "open_access"),
  max_results: number(form, "max_results"),
});

export function PaperSearchForm(props: ToolFormProps) {
  return (
    <QueryToolForm {...props} build={readPapers} placeholder="e.g. retrieval augmented generation">
      <div className="grid gap-4 sm:grid-cols-4">
        <SelectField label="Sort" name="sort" defaultValue="relevance" options={SORTS} />
        <TextField label="From year" name="year_from" inputMode="numeric" placeholder="e.g. 2017" />
        <TextField label="To year" name="year_to" inputMode="numeric" placeholder="e.g. 2024" />
        <TextField label="Results" name="max_results" inputMode="numeric" defaultValue="10" />
      </div>
      <CheckOption name="open_access" label="Open access only" />
    </QueryToolForm>
  );
}

const SAFESEARCH = [
  { value: "strict", label: "Strict (default)" },
  { value: "moderate", label: "Moderate" },
  { value: "off", label: "Off" },
];

const readImages = (form: FormData) => ({
  safesearch: option(form, "safesearch"),
  max_results: number(form, "max_results"),
});

export function ImageSearchForm(props: ToolFormProps) {
  return (
    <QueryToolForm {...props} build={readImages} placeholder="e.g. aurora over iceland">
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField label="Safe search" name="safesearch" defaultValue="strict" options={SAFESEARCH} />
        <TextField label="Results" name="max_results" inputMode="numeric" defaultValue="10" />
      </div>
    </QueryToolForm>
  );
}

/** A research job's question and limits; the job runs in the background, so the button starts it. */
export function ResearchForm(tool: ToolFormProps) {
  const build = (form: FormData) => ({
    question: text(form, "question") ?? "",
    max_queries: number(form, "max_queries"),
    max_pages: number(form, "max_pages"),
    max_cost_usd: number(form, "max_cost_usd"),
    providers: picked(form),
  });
  return (
    <FormShell
      tool={tool}
      build={build}
      main="question"
      expected={tool.providers}
      submit={["Start", "Starting…"]}
    >
      <TextField
        label="Question"
        name="question"
        placeholder="e.g. How do Rust async runtimes differ in scheduling?"
        required
        autoComplete="off"
      />
      <div className="grid gap-4 sm:grid-cols-3">
        <TextField
          label="Searches"
          hint="The question and its reformulations, 1–8."
          name="max_queries"
          inputMode="numeric"
          placeholder="4"
        />
        <TextField
          label="Pages to read"
          hint="The best of all searches' results, 1–20."
          name="max_pages"
          inputMode="numeric"
          placeholder="8"
        />
        <TextField
          label="Max cost (USD)"
          hint="No new step once the job has cost this; budgets apply besides."
          name="max_cost_usd"
          inputMode="decimal"
          placeholder="no limit"
        />
      </div>
      <ProviderPicker providers={tool.providers} error={tool.errors.providers} />
    </FormShell>
  );
}

/** A tool without a form of its own: its input as one JSON object, checked by the tool's schema. */
export function JsonInputForm(tool: ToolFormProps) {
  const [notAnObject, setNotAnObject] = useState(false);
  const read = (form: FormData) => {
    try {
      const input: unknown = JSON.parse(text(form, "input") ?? "{}");
      return typeof input === "object" && input !== null && !Array.isArray(input)
        ? (input as Record<string, unknown>)
        : undefined;
    } catch {
      return undefined;
    }
  };
  const schemaErrors = Object.entries(tool.errors).map(([field, message]) => `${field}: ${message}`);
  return (
    <FormShell tool={tool} build={read} expected={tool.providers} onBuilt={(made) => setNotAnObject(!made)}>
      <Field
        id="pg-input"
        label="Input (JSON)"
        hint="The tool's input as in the API reference."
        error={notAnObject ? "Enter a JSON object." : schemaErrors.join("; ") || undefined}
      >
        {(control) => (
          <textarea
            {...control}
            name="input"
            rows={6}
            defaultValue="{}"
            spellCheck={false}
            className={`${inputClasses} h-auto font-mono`}
          />
        )}
      </Field>
    </FormShell>
  );
}
