"use client";

import type { ComponentProps } from "react";
import type { FieldProps } from "./field";
import { ScopedField } from "./form-fields";
import { Select } from "./select";

type SelectFieldProps = Pick<FieldProps, "label" | "hint" | "className"> &
  Omit<ComponentProps<typeof Select>, "id" | "className" | "aria-invalid" | "aria-describedby">;

/** A labelled select with its hint, and its id and error from the surrounding FormFields (by name). */
export function SelectField({ label, hint, className, ...select }: SelectFieldProps) {
  return (
    <ScopedField {...{ name: select.name, label, hint, className }}>
      {(control) => <Select {...select} {...control} />}
    </ScopedField>
  );
}
