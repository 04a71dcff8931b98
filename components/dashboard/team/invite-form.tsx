"use client";

import { CodeBlock } from "@/components/ui/code-block";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { type Invitation, inviteMemberAction } from "@/lib/dashboard/actions/team";

const ROLES = [
  { value: "member", label: "Member — uses the workspace" },
  { value: "admin", label: "Admin — also manages keys, budgets, tokens" },
];

function LinkToCopy({ link }: { link: string }) {
  return (
    <div data-testid="invite-link">
      <CodeBlock code={link} label="invitation link" />
    </div>
  );
}

/**
 * What became of the invitation: emailed (the link only on request, in case the email goes astray), or the
 * link to pass on, with why the email failed when it did.
 */
function InvitationMade({ invitation }: { invitation: Invitation }) {
  const { email, link, sent } = invitation;
  const terms = "It works once, for that address, within 7 days.";
  if (sent.status === "sent")
    return (
      <div className="space-y-2 rounded-md border border-success/40 bg-success/5 p-3" role="status">
        <p className="text-sm" data-testid="invite-outcome">
          Invitation sent to <strong>{email}</strong>. {terms}
        </p>
        <details className="text-sm">
          <summary className="cursor-pointer text-muted-foreground">Copy the link instead</summary>
          <div className="mt-2">
            <LinkToCopy link={link} />
          </div>
        </details>
      </div>
    );
  const failed = sent.status === "failed";
  return (
    <div
      className={`space-y-2 rounded-md border p-3 ${failed ? "border-warning/40 bg-warning/5" : "border-success/40 bg-success/5"}`}
      role="status"
    >
      <p className="text-sm" data-testid="invite-outcome">
        {failed ? (
          <>
            The invitation is made, but the email to <strong>{email}</strong> was not sent: {sent.reason}.
            Send them this link yourself.
          </>
        ) : (
          <>
            Send this link to <strong>{email}</strong>.
          </>
        )}{" "}
        {terms} It is not shown again.
      </p>
      <LinkToCopy link={link} />
    </div>
  );
}

/** Invites by email: sends the link when the server can mail, else shows it to pass on. */
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
      {state.status === "success" && state.data ? <InvitationMade invitation={state.data} /> : null}
    </div>
  );
}
