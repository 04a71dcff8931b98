"use client";

import { useState, useTransition } from "react";
import { FormMessage } from "@/components/ui/form-message";
import { Select } from "@/components/ui/select";
import { type ActionState, IDLE } from "@/lib/dashboard/action-state";

type Role = "owner" | "admin" | "member";

const LABELS: Readonly<Record<Role, string>> = { owner: "Owner", admin: "Admin", member: "Member" };

/**
 * A member's role, changed as soon as another is picked among `roles` (those the viewer may give); a
 * refusal (the last owner) is shown below.
 */
export function MemberRole({
  email,
  role,
  roles,
  change,
}: {
  email: string;
  role: Role;
  roles: readonly Role[];
  change: (role: Role) => Promise<ActionState>;
}) {
  const [outcome, setOutcome] = useState<ActionState>(IDLE);
  const [pending, startTransition] = useTransition();
  return (
    <div className="space-y-1">
      <Select
        aria-label={`Role of ${email}`}
        options={roles.map((value) => ({ value, label: LABELS[value] }))}
        value={role}
        disabled={pending}
        onValueChange={(next) => startTransition(async () => setOutcome(await change(next as Role)))}
        className="w-32"
      />
      {outcome.status === "error" ? <FormMessage state={outcome} className="text-xs" /> : null}
    </div>
  );
}
