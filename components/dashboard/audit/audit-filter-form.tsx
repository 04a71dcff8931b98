"use client";

import Form from "next/form";
import Link from "next/link";
import { Button } from "@/components/ui/button";
import { FormFields } from "@/components/ui/form-fields";
import { selectOptions } from "@/components/ui/select";
import { SelectField } from "@/components/ui/select-field";
import { AUDIT_AREAS } from "@/lib/dashboard/audit-areas";
import type { AuditFilters } from "@/lib/dashboard/audit-search";

const ANY = "any";

/** Filters as a GET form, so a filtered log is a link that can be shared and reloaded. */
export function AuditFilterForm({ filters }: { filters: AuditFilters }) {
  return (
    <Form
      action="/dashboard/audit"
      className="grid gap-3 sm:grid-cols-3"
      role="search"
      aria-label="Filter the audit log"
    >
      <FormFields idPrefix="audit" errors={{}}>
        <SelectField
          label="Area"
          name="action"
          defaultValue={filters.action ?? ANY}
          options={[{ value: ANY, label: "Every area" }, ...selectOptions(AUDIT_AREAS)]}
        />
        <SelectField
          label="Time"
          name="range"
          defaultValue={filters.range ?? ANY}
          options={[
            { value: ANY, label: "Any time" },
            ...selectOptions([
              ["24h", "Last 24 hours"],
              ["7d", "Last 7 days"],
              ["30d", "Last 30 days"],
            ]),
          ]}
        />
        <div className="flex items-end gap-2">
          <Button type="submit">Filter</Button>
          <Button variant="ghost" asChild>
            <Link href="/dashboard/audit">Clear</Link>
          </Button>
        </div>
      </FormFields>
    </Form>
  );
}
