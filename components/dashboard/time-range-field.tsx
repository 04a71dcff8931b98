"use client";

import { SelectField } from "@/components/ui/select-field";

const RANGES = [
  { value: "any", label: "Any time" },
  { value: "day", label: "Past day" },
  { value: "week", label: "Past week" },
  { value: "month", label: "Past month" },
  { value: "year", label: "Past year" },
];

/** web_search's `time_range` as a select; "any" means the field is not sent. */
export function TimeRangeField({ label }: { label: string }) {
  return <SelectField label={label} name="time_range" defaultValue="any" options={RANGES} />;
}
