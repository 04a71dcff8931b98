"use client";

import Form from "next/form";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { FormFields } from "@/components/ui/form-fields";
import { type SelectOption, selectOptions } from "@/components/ui/select";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import type { TraceFilters } from "@/lib/dashboard/trace-search";

const ANY = "any";

interface Filter {
  name: "tool" | "surface" | "status" | "range" | "mine";
  label: string;
  /** The label of "not filtered". */
  any: string;
  options: readonly SelectOption[];
}

const toolFilter = (tools: readonly string[]): Filter => ({
  name: "tool",
  label: "Tool",
  any: "Any tool",
  options: selectOptions(tools),
});

const FILTERS: readonly Filter[] = [
  {
    name: "surface",
    label: "Surface",
    any: "Any surface",
    options: selectOptions([
      ["mcp", "MCP"],
      ["rest", "REST"],
      ["playground", "Playground"],
      ["cli", "CLI"],
    ]),
  },
  { name: "status", label: "Status", any: "Any status", options: selectOptions(["ok", "partial", "error"]) },
  {
    name: "range",
    label: "Time",
    any: "Any time",
    options: selectOptions([
      ["1h", "Last hour"],
      ["24h", "Last 24 hours"],
      ["7d", "Last 7 days"],
      ["30d", "Last 30 days"],
    ]),
  },
];
/** Admins see everyone's calls and may narrow the list to their own. */
const MINE: Filter = {
  name: "mine",
  label: "Made by",
  any: "Anyone",
  options: selectOptions([["true", "Me"]]),
};

/**
 * Filters as a GET form, so a filtered list is a link that can be shared and reloaded. `offerMine`: the
 * viewer sees others' calls too (admins) and may narrow the list to their own.
 */
export function TraceFilterForm({
  filters,
  offerMine,
  tools,
}: {
  filters: TraceFilters;
  offerMine: boolean;
  /** The tools whose calls are traced (the tool table's). */
  tools: readonly string[];
}) {
  return (
    <Form
      action="/dashboard/traces"
      className={cn("grid gap-3 sm:grid-cols-2", offerMine ? "lg:grid-cols-8" : "lg:grid-cols-7")}
      role="search"
      aria-label="Filter traces"
    >
      <FormFields idPrefix="filter" errors={{}}>
        {[toolFilter(tools), ...FILTERS, ...(offerMine ? [MINE] : [])].map(
          ({ name, label, any, options }) => (
            <SelectField
              key={name}
              label={label}
              name={name}
              defaultValue={filters[name] === undefined ? ANY : String(filters[name])}
              options={[{ value: ANY, label: any }, ...options]}
            />
          ),
        )}
        <TextField
          label="Provider"
          name="provider"
          defaultValue={filters.provider}
          placeholder="e.g. brave"
          autoComplete="off"
        />
        <div className="grid content-end gap-1.5 lg:col-span-2">
          <div className="flex items-end gap-2">
            <TextField
              label="Text"
              className="min-w-0 flex-1"
              name="q"
              type="search"
              defaultValue={filters.q}
              placeholder="URL, error, token or trace id"
            />
            <Button type="submit">Filter</Button>
            <Button variant="ghost" asChild>
              <Link href="/dashboard/traces">Clear</Link>
            </Button>
          </div>
        </div>
      </FormFields>
    </Form>
  );
}
