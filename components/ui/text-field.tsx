"use client";

import type { ComponentProps } from "react";
import type { FieldProps } from "./field";
import { ScopedField } from "./form-fields";
import { Input } from "./input";

type TextFieldProps = Pick<FieldProps, "label" | "hint" | "className"> &
  Omit<ComponentProps<"input">, "id" | "className">;

/** A labelled text input with its hint, and its id and error from the surrounding FormFields (by name). */
export function TextField({ label, hint, className, ...input }: TextFieldProps) {
  return (
    <ScopedField name={input.name} label={label} hint={hint} className={className}>
      {(control) => <Input {...input} {...control} />}
    </ScopedField>
  );
}
