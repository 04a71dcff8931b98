import { MailX } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { DestructiveAction } from "@/components/ui/destructive-action";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { revokeInvitationAction } from "@/lib/dashboard/actions/team";
import { formatDateTime } from "@/lib/dashboard/format";
import type { listInvitations } from "@/lib/services/members/list-invitations";

type Invitation = Awaited<ReturnType<typeof listInvitations>>[number];

/** Invitations nobody accepted yet, each with who sent it, when it expires, and a way to revoke it. */
export function PendingInvitations({ invitations }: { invitations: readonly Invitation[] }) {
  if (invitations.length === 0) {
    return <p className="text-sm text-muted-foreground">No invitation is waiting to be accepted.</p>;
  }
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Invited</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Invited by</TableHead>
          <TableHead>Expires</TableHead>
          <TableHead className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {invitations.map((invitation) => (
          <TableRow key={invitation.id} data-testid="invitation-row">
            <TableCell className="font-medium">{invitation.email}</TableCell>
            <TableCell>
              <Badge>{invitation.role}</Badge>
            </TableCell>
            <TableCell className="text-muted-foreground">{invitation.invitedBy ?? "—"}</TableCell>
            <TableCell className="whitespace-nowrap text-muted-foreground">
              {formatDateTime(invitation.expiresAt)}
            </TableCell>
            <TableCell className="text-right">
              <DestructiveAction
                text="Revoke"
                label={`Revoke the invitation of ${invitation.email}`}
                icon={MailX}
                title={`Revoke the invitation of ${invitation.email}?`}
                description="The link stops working at once; invite them again to send a new one."
                confirmLabel="Revoke invitation"
                action={revokeInvitationAction.bind(null, invitation.id)}
              />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
