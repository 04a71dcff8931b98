import { UserMinus } from "lucide-react";
import { PageHeader } from "@/components/dashboard/page-header";
import { PagePagination } from "@/components/dashboard/page-pagination";
import { InviteForm } from "@/components/dashboard/team/invite-form";
import { MemberRole } from "@/components/dashboard/team/member-role";
import { PendingInvitations } from "@/components/dashboard/team/pending-invitations";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DestructiveAction } from "@/components/ui/destructive-action";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { changeRoleAction, removeMemberAction } from "@/lib/dashboard/actions/team";
import { formatDateTime } from "@/lib/dashboard/format";
import { paginate } from "@/lib/dashboard/paginate";
import { dashboardSession } from "@/lib/dashboard/session";
import { listInvitations } from "@/lib/services/members/list-invitations";
import { listMembers } from "@/lib/services/members/list-members";

type Params = Promise<Record<string, string | string[] | undefined>>;

const OWNER_ROLES = ["owner", "admin", "member"] as const;
/** Admins manage members and admins; ownership is given and taken by owners only. */
const ADMIN_ROLES = ["admin", "member"] as const;

export default async function TeamPage({ searchParams }: { searchParams: Params }) {
  const params = await searchParams;
  const { session, ctx, canAdminister } = await dashboardSession();
  const [members, invitations] = await Promise.all([
    listMembers({ ctx }),
    canAdminister ? listInvitations({ ctx }) : null,
  ]);
  const page = paginate(members, params.page);
  const isOwner = session.role === "owner";

  return (
    <div className="space-y-6">
      <PageHeader
        title="Team"
        description="Owners and admins manage keys, budgets, tokens and people; members use the workspace."
      />
      {canAdminister ? (
        <Card>
          <CardHeader>
            <CardTitle>Invite someone</CardTitle>
            <CardDescription>They sign in with the invited email address and open the link.</CardDescription>
          </CardHeader>
          <CardContent>
            <InviteForm />
          </CardContent>
        </Card>
      ) : null}
      {invitations ? (
        <Card>
          <CardHeader>
            <CardTitle>Pending invitations</CardTitle>
            <CardDescription>
              Links sent and not yet accepted. Removing an admin, or making them a member, revokes the
              invitations they sent.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <PendingInvitations invitations={invitations} />
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>Members</CardTitle>
          <CardDescription>
            Removing someone revokes the API tokens they created; making someone a member revokes those of
            their tokens that hold the admin scope. Only owners make, change or remove owners.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Member</TableHead>
                <TableHead>Role</TableHead>
                <TableHead>Since</TableHead>
                <TableHead className="text-right">
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {page.items.map((member) => {
                const email = member.email ?? member.userId;
                const you = member.userId === session.user.id;
                const manageable = canAdminister && (isOwner || member.role !== "owner");
                return (
                  <TableRow key={member.userId} data-testid="member-row">
                    <TableCell>
                      <span className="font-medium">{member.name ?? email}</span>
                      {you ? (
                        <Badge tone="outline" className="ml-2">
                          you
                        </Badge>
                      ) : null}
                      <span className="block text-xs text-muted-foreground">{email}</span>
                    </TableCell>
                    <TableCell>
                      {manageable ? (
                        <MemberRole
                          email={email}
                          role={member.role}
                          roles={isOwner ? OWNER_ROLES : ADMIN_ROLES}
                          change={changeRoleAction.bind(null, member.userId)}
                        />
                      ) : (
                        <Badge>{member.role}</Badge>
                      )}
                    </TableCell>
                    <TableCell className="whitespace-nowrap text-muted-foreground">
                      {formatDateTime(member.since)}
                    </TableCell>
                    <TableCell className="text-right">
                      {manageable ? (
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
                      ) : null}
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
          <PagePagination label="Member pages" page={page} params={params} />
        </CardContent>
      </Card>
    </div>
  );
}
