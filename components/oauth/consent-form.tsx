"use client";

import { startTransition, useActionState, useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Label } from "@/components/ui/label";
import { Select } from "@/components/ui/select";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { type ActionState, IDLE } from "@/lib/dashboard/action-state";
import type { ConsentOutcome } from "@/lib/dashboard/actions/oauth";
import type { Scope } from "@/lib/pipeline/context";

/** What each permission lets the application do, in the member's words. */
const PERMISSIONS: Record<Scope, string> = {
  mcp: "connect to Searchmux over MCP",
  search: "search the web (web_search)",
  fetch: "read web pages (fetch)",
  answer: "ask answer engines (answer)",
  papers: "search scholarly papers (paper_search)",
  admin: "administer the workspace: tokens, keys, budgets (owners and admins only)",
};

export interface ConsentWorkspace {
  tenantId: string;
  name: string;
  role: string;
}

/**
 * The consent decision: the workspace (the member may belong to several) and the permissions, then
 * Approve or Deny; either answer sends the browser back to the application. Refused inside a frame
 * (another site could otherwise overlay it and trick the click): the buttons stay off unless this page
 * is the top window, which only script can tell, so they start off.
 */
export function ConsentForm({
  workspaces,
  currentTenantId,
  scopes,
  approve,
  deny,
}: {
  workspaces: readonly ConsentWorkspace[];
  currentTenantId: string;
  scopes: readonly Scope[];
  approve: (previous: ActionState<ConsentOutcome>, form: FormData) => Promise<ActionState<ConsentOutcome>>;
  deny: () => Promise<ActionState<ConsentOutcome>>;
}) {
  const { state, pending, form } = useFormAction(approve);
  const [denied, dispatchDeny, denying] = useActionState(deny, IDLE as ActionState<ConsentOutcome>);
  const [topWindow, setTopWindow] = useState(false);
  const [tenantId, setTenantId] = useState(
    workspaces.some((workspace) => workspace.tenantId === currentTenantId)
      ? currentTenantId
      : (workspaces[0]?.tenantId ?? ""),
  );
  const errors = state.fieldErrors ?? {};
  const redirectTo = state.data?.redirectTo ?? denied.data?.redirectTo;

  useEffect(() => setTopWindow(window.top === window.self), []);
  useEffect(() => {
    if (redirectTo) window.location.assign(redirectTo);
  }, [redirectTo]);

  const outcome = denied.status === "error" ? denied : state;
  return (
    <form {...form} className="grid gap-5" data-testid="consent-form">
      <input type="hidden" name="tenantId" value={tenantId} />
      <Field id="consent-workspace" label="Workspace">
        {(control) => (
          <Select
            {...control}
            options={workspaces.map((workspace) => ({
              value: workspace.tenantId,
              label: `${workspace.name} (${workspace.role})`,
            }))}
            value={tenantId}
            onValueChange={setTenantId}
          />
        )}
      </Field>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">It may</legend>
        {scopes.map((scope) => (
          <div key={scope} className="flex items-center gap-2">
            <Checkbox
              id={`consent-${scope}`}
              name="scopes"
              value={scope}
              defaultChecked={scope !== "admin"}
            />
            <Label htmlFor={`consent-${scope}`} className="font-normal">
              {PERMISSIONS[scope]}
            </Label>
          </div>
        ))}
        {errors.scopes ? <p className="text-xs font-medium text-destructive">{errors.scopes}</p> : null}
      </fieldset>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending || redirectTo !== undefined} disabled={!topWindow || denying}>
          Approve
        </SubmitButton>
        <Button
          type="button"
          variant="outline"
          disabled={!topWindow || pending || denying || redirectTo !== undefined}
          onClick={() => startTransition(dispatchDeny)}
        >
          Deny
        </Button>
        <FormMessage state={outcome.status === "error" ? outcome : IDLE} />
      </div>
    </form>
  );
}
