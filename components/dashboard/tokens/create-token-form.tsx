"use client";

import { useEffect, useState } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { IDLE } from "@/lib/dashboard/action-state";
import { createTokenAction } from "@/lib/dashboard/actions/tokens";
import { useShowNewToken } from "./new-token";

const SCOPES = [
  { value: "search", hint: "web_search" },
  { value: "fetch", hint: "read pages" },
  { value: "answer", hint: "AI answers" },
  { value: "papers", hint: "paper_search" },
  { value: "mcp", hint: "connect over MCP" },
  { value: "admin", hint: "manage keys, budgets, tokens" },
] as const;
const DEFAULT_SCOPES: readonly string[] = ["search", "fetch", "answer", "papers", "mcp"];

const EXPIRY = [
  { value: "never", label: "Never" },
  { value: "30", label: "In 30 days" },
  { value: "90", label: "In 90 days" },
  { value: "365", label: "In a year" },
  { value: "custom", label: "On a date…" },
];

export function CreateTokenForm() {
  const { state, pending, form } = useFormAction(createTokenAction, { resetOnSuccess: true });
  const [expires, setExpires] = useState("never");
  const showToken = useShowNewToken();
  const errors = state.fieldErrors ?? {};

  useEffect(() => {
    if (state.status === "success" && state.data) showToken(state.data);
  }, [state, showToken]);

  return (
    <form {...form} className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="token-name"
          label="Name"
          hint="Which agent or machine uses it, e.g. “laptop-claude”."
          error={errors.name}
        >
          {(control) => <Input {...control} name="name" maxLength={100} autoComplete="off" required />}
        </Field>
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
          {SCOPES.map(({ value, hint }) => (
            <div key={value} className="flex items-center gap-2">
              <Checkbox
                id={`scope-${value}`}
                name="scopes"
                value={value}
                defaultChecked={DEFAULT_SCOPES.includes(value)}
              />
              <Label htmlFor={`scope-${value}`} className="font-normal">
                <span className="font-mono">{value}</span>{" "}
                <span className="text-muted-foreground">· {hint}</span>
              </Label>
            </div>
          ))}
        </div>
        {errors.scopes ? <p className="text-xs font-medium text-destructive">{errors.scopes}</p> : null}
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending}>Create token</SubmitButton>
        <FormMessage state={state.status === "error" ? state : IDLE} />
      </div>
    </form>
  );
}
