import { MailX } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import { DestructiveAction } from "@/components/ui/destructive-action";
import { revokeInvitationAction } from "@/lib/dashboard/actions/team";
import { formatDateTime } from "@/lib/dashboard/format";
import type { listInvitations } from "@/lib/services/members/list-invitations";

type Invitation = Awaited<ReturnType<typeof listInvitations>>[number];

const columns: Column<Invitation>[] = [
  {
    header: "Invited",
    className: "font-medium [overflow-wrap:anywhere]",
    cell: (invitation) => invitation.email,
  },
  { header: "Role", cell: (invitation) => <Badge>{invitation.role}</Badge> },
  {
    header: "Invited by",
    foldBelow: "2xl",
    className: "text-muted-foreground",
    cell: (invitation) => invitation.invitedBy ?? "—",
  },
  {
    header: "Expires",
    foldBelow: "2xl",
    className: "whitespace-nowrap text-muted-foreground",
    cell: (invitation) => formatDateTime(invitation.expiresAt),
  },
  {
    header: "Actions",
    hideHeader: true,
    align: "end",
    cell: (invitation) => (
      <DestructiveAction
        text="Revoke"
        label={`Revoke the invitation of ${invitation.email}`}
        icon={MailX}
        title={`Revoke the invitation of ${invitation.email}?`}
        description="The link stops working at once; invite them again to send a new one."
        confirmLabel="Revoke invitation"
        action={revokeInvitationAction.bind(null, invitation.id)}
      />
    ),
  },
];

/** Invitations nobody accepted yet, each with who sent it, when it expires, and a way to revoke it. */
export function PendingInvitations({ invitations }: { invitations: readonly Invitation[] }) {
  if (invitations.length === 0) {
    return <p className="text-sm text-muted-foreground">No invitation is waiting to be accepted.</p>;
  }
  return <DataTable rows={invitations} columns={columns} rowKey={(i) => i.id} rowTestId="invitation-row" />;
}
