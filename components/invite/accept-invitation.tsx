"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import type { ActionState } from "@/lib/dashboard/action-state";

/** The accept button, then what happened: joined (with the role), or why the link did not work. */
export function AcceptInvitation({ accept }: { accept: () => Promise<ActionState<{ role: string }>> }) {
  const { state, pending, form } = useFormAction<{ role: string }>(() => accept());
  if (state.status === "success" && state.data) {
    return (
      <div className="space-y-3" role="status">
        <p className="text-success">You joined the workspace as {state.data.role}.</p>
        <Button asChild>
          <Link href="/dashboard">Go to the dashboard</Link>
        </Button>
      </div>
    );
  }
  return (
    <form {...form} className="space-y-3">
      <SubmitButton pending={pending}>Accept invitation</SubmitButton>
      {state.status === "error" ? <FormMessage state={state} /> : null}
    </form>
  );
}
