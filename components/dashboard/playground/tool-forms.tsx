"use client";

import { type FormEvent, type ReactNode, useState } from "react";
import { TimeRangeField } from "@/components/dashboard/time-range-field";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Field } from "@/components/ui/field";
import { Input, inputClasses } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { formList, formNumber as number, formText as text } from "@/lib/dashboard/form-data";

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

function submitWith(
  build: (form: FormData) => Record<string, unknown>,
  providers: readonly ProviderChoice[],
  onRun: ToolFormProps["onRun"],
) {
  return (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onRun(build(form), picked(form) ?? providers.map((p) => p.id));
  };
}

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

function FormShell({
  onSubmit,
  running,
  children,
}: {
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  running: boolean;
  children: ReactNode;
}) {
  return (
    <form onSubmit={onSubmit} className="grid gap-4" noValidate>
      {children}
      <div>
        <Button type="submit" disabled={running} aria-busy={running}>
          {running ? "Running…" : "Run"}
        </Button>
      </div>
    </form>
  );
}

function QueryField({
  errors,
  label = "Query",
  placeholder,
}: {
  errors: FieldErrors;
  label?: string;
  placeholder: string;
}) {
  return (
    <Field id="pg-query" label={label} error={errors.query}>
      {(control) => <Input {...control} name="query" placeholder={placeholder} required autoComplete="off" />}
    </Field>
  );
}

export function WebSearchForm({ providers, errors, running, onRun }: ToolFormProps) {
  const build = (form: FormData) => ({
    query: text(form, "query") ?? "",
    max_results: number(form, "max_results"),
    mode: option(form, "mode"),
    time_range: option(form, "time_range"),
    include_domains: list(form, "include_domains"),
    exclude_domains: list(form, "exclude_domains"),
    lens: text(form, "lens"),
    grounded_snippets: flag(form, "grounded_snippets"),
    include_content: flag(form, "include_content"),
    providers: picked(form),
    no_cache: flag(form, "no_cache"),
  });
  return (
    <FormShell onSubmit={submitWith(build, providers, onRun)} running={running}>
      <QueryField errors={errors} placeholder="rust async runtimes site:github.com" />
      <ProviderPicker providers={providers} error={errors.providers} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="pg-mode" label="Mode" error={errors.mode}>
          {(control) => (
            <Select
              {...control}
              name="mode"
              defaultValue="fanout"
              options={[
                { value: "fanout", label: "Fan out (all at once)" },
                { value: "budget", label: "Budget (cheapest first)" },
                { value: "single", label: "Single (first that answers)" },
              ]}
            />
          )}
        </Field>
        <TimeRangeField id="pg-time" label="Time range" error={errors.time_range} />
        <Field id="pg-max" label="Results" error={errors.max_results}>
          {(control) => <Input {...control} name="max_results" inputMode="numeric" defaultValue="10" />}
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="pg-include"
          label="Only these domains"
          hint="Comma-separated."
          error={errors.include_domains}
        >
          {(control) => <Input {...control} name="include_domains" placeholder="docs.rs, github.com" />}
        </Field>
        <Field
          id="pg-exclude"
          label="Never these domains"
          hint="Comma-separated."
          error={errors.exclude_domains}
        >
          {(control) => <Input {...control} name="exclude_domains" placeholder="pinterest.com" />}
        </Field>
      </div>
      <Field
        id="pg-lens"
        label="Lens"
        hint="A named domain set: docs, academic, news, forums, code, or one of your workspace's."
        error={errors.lens}
      >
        {(control) => <Input {...control} name="lens" placeholder="docs" autoComplete="off" />}
      </Field>
      <div className="flex flex-wrap gap-x-6 gap-y-2">
        <CheckOption name="grounded_snippets" label="Grounded snippets (read the pages; needs a model)" />
        <CheckOption name="include_content" label="Include the top pages' content" />
      </div>
      <NoCache />
    </FormShell>
  );
}

export function FetchForm({ errors, running, onRun }: ToolFormProps) {
  const build = (form: FormData) => ({
    url: text(form, "url") ?? "",
    format: option(form, "format"),
    no_cache: flag(form, "no_cache"),
  });
  return (
    // The fetch waterfall tries its steps one after another; which ones is not known ahead.
    <FormShell onSubmit={submitWith(build, [], onRun)} running={running}>
      <div className="grid gap-4 sm:grid-cols-[1fr_12rem]">
        <Field id="pg-url" label="URL" error={errors.url}>
          {(control) => (
            <Input {...control} name="url" type="url" placeholder="https://example.com/article" required />
          )}
        </Field>
        <Field id="pg-format" label="Format" error={errors.format}>
          {(control) => (
            <Select
              {...control}
              name="format"
              defaultValue="markdown"
              options={[
                { value: "markdown", label: "Markdown" },
                { value: "text", label: "Plain text" },
                { value: "html", label: "HTML" },
              ]}
            />
          )}
        </Field>
      </div>
      <NoCache />
    </FormShell>
  );
}

export function AnswerForm({ providers, errors, running, onRun }: ToolFormProps) {
  const build = (form: FormData) => ({
    query: text(form, "query") ?? "",
    providers: picked(form),
    no_cache: flag(form, "no_cache"),
  });
  return (
    <FormShell onSubmit={submitWith(build, providers, onRun)} running={running}>
      <QueryField errors={errors} label="Question" placeholder="Which async runtime does Rust use most?" />
      <ProviderPicker providers={providers} error={errors.providers} />
      <NoCache />
    </FormShell>
  );
}

export function PaperSearchForm({ providers, errors, running, onRun }: ToolFormProps) {
  const build = (form: FormData) => ({
    query: text(form, "query") ?? "",
    sort: option(form, "sort"),
    year_from: number(form, "year_from"),
    year_to: number(form, "year_to"),
    open_access: flag(form, "open_access"),
    max_results: number(form, "max_results"),
    providers: picked(form),
    no_cache: flag(form, "no_cache"),
  });
  return (
    <FormShell onSubmit={submitWith(build, providers, onRun)} running={running}>
      <QueryField errors={errors} placeholder="retrieval augmented generation" />
      <ProviderPicker providers={providers} error={errors.providers} />
      <div className="grid gap-4 sm:grid-cols-4">
        <Field id="pg-sort" label="Sort" error={errors.sort}>
          {(control) => (
            <Select
              {...control}
              name="sort"
              defaultValue="relevance"
              options={[
                { value: "relevance", label: "Relevance" },
                { value: "date", label: "Newest first" },
              ]}
            />
          )}
        </Field>
        <Field id="pg-from" label="From year" error={errors.year_from}>
          {(control) => <Input {...control} name="year_from" inputMode="numeric" placeholder="e.g. 2017" />}
        </Field>
        <Field id="pg-to" label="To year" error={errors.year_to}>
          {(control) => <Input {...control} name="year_to" inputMode="numeric" />}
        </Field>
        <Field id="pg-papers-max" label="Results" error={errors.max_results}>
          {(control) => <Input {...control} name="max_results" inputMode="numeric" defaultValue="10" />}
        </Field>
      </div>
      <div className="flex flex-wrap gap-4">
        <div className="flex items-center gap-2">
          <Checkbox id="open-access" name="open_access" />
          <Label htmlFor="open-access" className="font-normal">
            Open access only
          </Label>
        </div>
        <NoCache />
      </div>
    </FormShell>
  );
}

/** A tool without a form of its own: its input as one JSON object, checked by the tool's schema. */
export function JsonInputForm({ providers, errors, running, onRun }: ToolFormProps) {
  const [notAnObject, setNotAnObject] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    let input: unknown;
    try {
      input = JSON.parse(text(new FormData(event.currentTarget), "input") ?? "{}");
    } catch {
      input = null;
    }
    const isObject = typeof input === "object" && input !== null && !Array.isArray(input);
    setNotAnObject(!isObject);
    if (isObject)
      onRun(
        input as Record<string, unknown>,
        providers.map((p) => p.id),
      );
  };
  const schemaErrors = Object.entries(errors).map(([field, message]) => `${field}: ${message}`);
  return (
    <FormShell onSubmit={submit} running={running}>
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
