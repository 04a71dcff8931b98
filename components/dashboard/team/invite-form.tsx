"use client";

import { CodeBlock } from "@/components/ui/code-block";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { inviteMemberAction } from "@/lib/dashboard/actions/team";

const ROLES = [
  { value: "member", label: "Member — uses the workspace" },
  { value: "admin", label: "Admin — also manages keys, budgets, tokens" },
];

/** Invites by email and shows the one-time link to pass on. */
export function InviteForm() {
  const { state, pending, form } = useFormAction(inviteMemberAction, { resetOnSuccess: true });
  const errors = state.fieldErrors ?? {};
  return (
    <div className="space-y-4">
      <form {...form} className="grid gap-4 sm:grid-cols-[1fr_18rem_auto] sm:items-end">
        <Field id="invite-email" label="Email" error={errors.email}>
          {(control) => <Input {...control} name="email" type="email" autoComplete="off" required />}
        </Field>
        <Field id="invite-role" label="Role" error={errors.role}>
          {(control) => <Select {...control} name="role" options={ROLES} defaultValue="member" />}
        </Field>
        <SubmitButton pending={pending}>Invite</SubmitButton>
      </form>
      {state.status === "error" && !state.fieldErrors ? <FormMessage state={state} /> : null}
      {state.status === "success" && state.data ? (
        <div className="space-y-2 rounded-md border border-success/40 bg-success/5 p-3" role="status">
          <p className="text-sm">
            Send this link to <strong>{state.data.email}</strong>. It works once, for that address, within 7
            days, and is not shown again.
          </p>
          <div data-testid="invite-link">
            <CodeBlock code={state.data.link} label="invitation link" />
          </div>
        </div>
      ) : null}
    </div>
  );
}
