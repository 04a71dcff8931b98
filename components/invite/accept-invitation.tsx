"use client";

import Link from "next/link";
import { Button } from "@/components/ui/button";
import { FormMessage } from "@/components/ui/form-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import type { ActionState } from "@/lib/dashboard/action-state";

type Joined = { role: string; tenantId: string; alreadyMember: boolean };

/**
 * Points the session at another workspace the user belongs to: next-auth's session update (the jwt
 * callback checks the membership), then a fresh load of the dashboard.
 */
async function switchWorkspace(tenantId: string): Promise<void> {
  const { csrfToken } = (await (await fetch("/api/auth/csrf")).json()) as { csrfToken: string };
  await fetch("/api/auth/session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ csrfToken, data: { tenantId } }),
  });
  window.location.assign("/dashboard");
}

/** The accept button, then what happened: joined (with the role), or why the link did not work. */
export function AcceptInvitation({ accept }: { accept: () => Promise<ActionState<Joined>> }) {
  const { state, pending, form } = useFormAction<Joined>(() => accept());
  if (state.status === "success" && state.data) {
    const { tenantId } = state.data;
    return (
      <div className="space-y-3" role="status">
        <p className="text-success">
          {state.data.alreadyMember
            ? `You were already in this workspace; your role is ${state.data.role}.`
            : `You joined the workspace as ${state.data.role}.`}
        </p>
        <Button onClick={() => void switchWorkspace(tenantId)}>Open this workspace</Button>
        <Button asChild variant="outline">
          <Link href="/dashboard">Stay in my current workspace</Link>
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
