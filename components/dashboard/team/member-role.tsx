"use client";

import { useState, useTransition } from "react";
import { FormMessage } from "@/components/ui/form-message";
import { Select } from "@/components/ui/select";
import { type ActionState, IDLE } from "@/lib/dashboard/action-state";

const ROLES = [
  { value: "owner", label: "Owner" },
  { value: "admin", label: "Admin" },
  { value: "member", label: "Member" },
];

type Role = "owner" | "admin" | "member";

/** A member's role, changed as soon as another is picked; a refusal (the last owner) is shown below. */
export function MemberRole({
  email,
  role,
  change,
}: {
  email: string;
  role: Role;
  change: (role: Role) => Promise<ActionState>;
}) {
  const [outcome, setOutcome] = useState<ActionState>(IDLE);
  const [pending, startTransition] = useTransition();
  return (
    <div className="space-y-1">
      <Select
        aria-label={`Role of ${email}`}
        options={ROLES}
        value={role}
        disabled={pending}
        onValueChange={(next) => startTransition(async () => setOutcome(await change(next as Role)))}
        className="w-32"
      />
      {outcome.status === "error" ? <FormMessage state={outcome} className="text-xs" /> : null}
    </div>
  );
}
