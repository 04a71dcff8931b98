import { UserMinus } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import { DestructiveAction } from "@/components/ui/destructive-action";
import { changeRoleAction, removeMemberAction } from "@/lib/dashboard/actions/team";
import { formatDateTime } from "@/lib/dashboard/format";
import type { listMembers } from "@/lib/services/members/list-members";
import { MemberRole } from "./member-role";

type Member = Awaited<ReturnType<typeof listMembers>>[number];

const OWNER_ROLES = ["owner", "admin", "member"] as const;
/** Admins manage members and admins; ownership is given and taken by owners only. */
const ADMIN_ROLES = ["admin", "member"] as const;

/** Members who never set a name or an email address are shown by their user id. */
const emailOf = (member: Member) => member.email ?? member.userId;

/** Who the viewer is and what they may do to the members listed. */
interface Viewer {
  userId: string;
  canAdminister: boolean;
  isOwner: boolean;
}

const columns = (viewer: Viewer): Column<Member>[] => {
  const isViewer = (member: Member) => member.userId === viewer.userId;
  const manageable = (member: Member) => viewer.canAdminister && (viewer.isOwner || member.role !== "owner");
  return [
    {
      header: "Member",
      cell: (member) => (
        <>
          <span className="font-medium">{member.name ?? emailOf(member)}</span>
          {isViewer(member) ? (
            <Badge tone="outline" className="ml-2">
              you
            </Badge>
          ) : null}
          <span className="block text-xs text-muted-foreground [overflow-wrap:anywhere]">
            {emailOf(member)}
          </span>
        </>
      ),
    },
    {
      header: "Role",
      cell: (member) =>
        manageable(member) ? (
          <MemberRole
            email={emailOf(member)}
            role={member.role}
            roles={viewer.isOwner ? OWNER_ROLES : ADMIN_ROLES}
            change={changeRoleAction.bind(null, member.userId)}
          />
        ) : (
          <Badge>{member.role}</Badge>
        ),
    },
    {
      header: "Since",
      foldBelow: "2xl",
      className: "whitespace-nowrap text-muted-foreground",
      cell: (member) => formatDateTime(member.since),
    },
    {
      header: "Actions",
      hideHeader: true,
      align: "end",
      cell: (member) => (manageable(member) ? <RemoveMember member={member} you={isViewer(member)} /> : null),
    },
  ];
};

function RemoveMember({ member, you }: { member: Member; you: boolean }) {
  const email = emailOf(member);
  return (
    <DestructiveAction
      text={you ? "Leave" : "Remove"}
      label={`Remove ${email}`}
      icon={UserMinus}
      title={you ? "Leave this workspace?" : `Remove ${email}?`}
      description={
        you
          ? "You lose access to its keys, budgets and traces, and the API tokens you created here are revoked. A workspace keeps at least one owner."
          : "They are removed from the workspace, and the API tokens they created stop working at once (they are revoked)."
      }
      confirmLabel={you ? "Leave" : "Remove member"}
      action={removeMemberAction.bind(null, member.userId)}
    />
  );
}

/** The workspace's members, each with their role (changeable where the viewer may) and a way to remove them. */
export function MemberTable({ members, viewer }: { members: readonly Member[]; viewer: Viewer }) {
  return (
    <DataTable rows={members} columns={columns(viewer)} rowKey={(m) => m.userId} rowTestId="member-row" />
  );
}
