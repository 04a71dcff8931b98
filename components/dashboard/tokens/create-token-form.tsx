"use client";

import { useEffect, useRef, useState } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { Field } from "@/components/ui/field";
import { FormFields } from "@/components/ui/form-fields";
import { FormFooter } from "@/components/ui/form-footer";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, selectOptions } from "@/components/ui/select";
import { TextField } from "@/components/ui/text-field";
import { useFormAction } from "@/components/ui/use-form-action";
import { IDLE } from "@/lib/dashboard/action-state";
import { createTokenAction } from "@/lib/dashboard/actions/tokens";
import type { Scope } from "@/lib/pipeline/context";
import { useShowNewToken } from "./new-token";

/** The scopes a token may get; those that allow tools are hinted with the tools' names (`scopeTools`). */
const SCOPES: ReadonlyArray<{ value: Scope; hint?: string }> = [
  { value: "search" },
  { value: "fetch" },
  { value: "answer" },
  { value: "papers" },
  { value: "mcp", hint: "connect over MCP" },
  { value: "admin", hint: "manage keys, budgets, tokens" },
];
const DEFAULT_SCOPES: readonly Scope[] = ["search", "fetch", "answer", "papers", "mcp"];

const EXPIRY = selectOptions([
  ["never", "Never"],
  ["30", "In 30 days"],
  ["90", "In 90 days"],
  ["365", "In a year"],
  ["custom", "On a date…"],
]);

/**
 * `scopes`: those the viewer's role has, the most a token they create may get; `scopeTools`: the tools each
 * scope allows, from the tool table (lib/dashboard/scope-tools.ts).
 */
export function CreateTokenForm({
  scopes,
  scopeTools,
}: {
  scopes: readonly Scope[];
  scopeTools: Partial<Record<Scope, readonly string[]>>;
}) {
  const { state, pending, form } = useFormAction(createTokenAction, { resetOnSuccess: true });
  const [expires, setExpires] = useState("never");
  const showToken = useShowNewToken();
  // The button that submitted the form, where focus returns once the token's dialog closes.
  const submitter = useRef<HTMLElement | null>(null);
  const errors = state.fieldErrors ?? {};

  useEffect(() => {
    if (state.status === "success" && state.data) showToken(state.data, submitter.current);
  }, [state, showToken]);

  return (
    <form
      {...form}
      onSubmit={(event) => {
        submitter.current = (event.nativeEvent as SubmitEvent).submitter;
        form.onSubmit(event);
      }}
      className="grid gap-4"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <FormFields idPrefix="token" errors={errors}>
          <TextField
            label="Name"
            hint="Which agent or machine uses it."
            name="name"
            placeholder="e.g. laptop-claude"
            maxLength={100}
            autoComplete="off"
            required
          />
        </FormFields>
        <Field id="token-expires" label="Expires" error={errors.expiresAt}>
          {(control) => (
            <div className="flex flex-col gap-2 sm:flex-row">
              <Select
                {...control}
                name="expires"
                options={EXPIRY}
                value={expires}
                onValueChange={setExpires}
              />
              {expires === "custom" ? <Input type="date" name="expiresOn" aria-label="Expiry date" /> : null}
            </div>
          )}
        </Field>
      </div>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Scopes</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {SCOPES.filter(({ value }) => scopes.includes(value)).map(({ value, hint }) => (
            <div key={value} className="flex items-center gap-2">
              <Checkbox
                id={`scope-${value}`}
                name="scopes"
                value={value}
                defaultChecked={DEFAULT_SCOPES.includes(value)}
              />
              <Label htmlFor={`scope-${value}`} className="font-normal">
                <span className="font-mono">{value}</span>{" "}
                <span className="text-muted-foreground">· {hint ?? scopeTools[value]?.join(", ")}</span>
              </Label>
            </div>
          ))}
        </div>
        {errors.scopes ? <p className="text-xs font-medium text-destructive">{errors.scopes}</p> : null}
      </fieldset>
      {/* Success shows the token in its dialog instead. */}
      <FormFooter pending={pending} state={state.status === "error" ? state : IDLE}>
        Create token
      </FormFooter>
    </form>
  );
}
