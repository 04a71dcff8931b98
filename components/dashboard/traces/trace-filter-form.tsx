"use client";

import Form from "next/form";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import type { TraceFilters } from "@/lib/dashboard/trace-search";

const ANY = "any";
const FILTERS = [
  {
    name: "tool",
    label: "Tool",
    options: ["web_search", "fetch", "answer", "paper_search"].map((v) => ({ value: v, label: v })),
  },
  {
    name: "surface",
    label: "Surface",
    options: [
      { value: "mcp", label: "MCP" },
      { value: "rest", label: "REST" },
      { value: "playground", label: "Playground" },
      { value: "cli", label: "CLI" },
    ],
  },
  {
    name: "status",
    label: "Status",
    options: ["ok", "partial", "error"].map((v) => ({ value: v, label: v })),
  },
  {
    name: "range",
    label: "Time",
    options: [
      { value: "1h", label: "Last hour" },
      { value: "24h", label: "Last 24 hours" },
      { value: "7d", label: "Last 7 days" },
      { value: "30d", label: "Last 30 days" },
    ],
  },
] as const;

/** Filters as a GET form, so a filtered list is a link that can be shared and reloaded. */
export function TraceFilterForm({ filters }: { filters: TraceFilters }) {
  return (
    <Form
      action="/dashboard/traces"
      className="grid gap-3 sm:grid-cols-2 lg:grid-cols-7"
      role="search"
      aria-label="Filter traces"
    >
      {FILTERS.map(({ name, label, options }) => (
        <div key={name} className="grid gap-1.5">
          <Label htmlFor={`filter-${name}`}>{label}</Label>
          <Select
            id={`filter-${name}`}
            name={name}
            defaultValue={filters[name] ?? ANY}
            options={[{ value: ANY, label: `Any ${label.toLowerCase()}` }, ...options]}
          />
        </div>
      ))}
      <div className="grid gap-1.5">
        <Label htmlFor="filter-provider">Provider</Label>
        <Input
          id="filter-provider"
          name="provider"
          defaultValue={filters.provider}
          placeholder="brave"
          autoComplete="off"
        />
      </div>
      <div className="grid gap-1.5 lg:col-span-2">
        <Label htmlFor="filter-q">Text</Label>
        <div className="flex gap-2">
          <Input
            id="filter-q"
            name="q"
            type="search"
            defaultValue={filters.q}
            placeholder="URL, error, token, trace id"
          />
          <Button type="submit">Filter</Button>
          <Button variant="ghost" asChild>
            <Link href="/dashboard/traces">Clear</Link>
          </Button>
        </div>
      </div>
    </Form>
  );
}
