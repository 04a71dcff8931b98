"use client";

import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";

/** web_search's `time_range` as a select; "any" means the field is not sent. */
export function TimeRangeField({ id, label, error }: { id: string; label: string; error?: string }) {
  return (
    <Field id={id} label={label} error={error}>
      {(control) => (
        <Select
          {...control}
          name="time_range"
          defaultValue="any"
          options={[
            { value: "any", label: "Any time" },
            { value: "day", label: "Past day" },
            { value: "week", label: "Past week" },
            { value: "month", label: "Past month" },
            { value: "year", label: "Past year" },
          ]}
        />
      )}
    </Field>
  );
}
