"use client";

import { createContext, type ReactNode, useContext } from "react";
import { Field, type FieldProps } from "./field";

interface FormFieldsScope {
  /** Prefixes each field's id: `<prefix>-<name>`. */
  idPrefix: string;
  /** The form's errors by field name (an ActionState's fieldErrors, a schema's issues). */
  errors: Partial<Record<string, string>>;
}

const Scope = createContext<FormFieldsScope>({ idPrefix: "field", errors: {} });

/** Gives the TextFields and SelectFields inside a form their ids and their errors, by field name. */
export function FormFields({ children, ...scope }: FormFieldsScope & { children: ReactNode }) {
  return <Scope.Provider value={scope}>{children}</Scope.Provider>;
}

/** A field's id and error within its FormFields, by the name it submits under. */
function useFieldScope(name: string | undefined): { id: string; error?: string } {
  const { idPrefix, errors } = useContext(Scope);
  return { id: `${idPrefix}-${name ?? "field"}`, error: name ? errors[name] : undefined };
}

/** A Field whose id and error come from the surrounding FormFields, by the control's `name`. */
export function ScopedField({ name, ...field }: Omit<FieldProps, "id" | "error"> & { name?: string }) {
  const { id, error } = useFieldScope(name);
  return <Field id={id} error={error} {...field} />;
}
