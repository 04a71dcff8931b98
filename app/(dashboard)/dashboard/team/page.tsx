import { PageHeader } from "@/components/dashboard/page-header";
import { PagePagination } from "@/components/dashboard/page-pagination";
import { InviteForm } from "@/components/dashboard/team/invite-form";
import { MemberTable } from "@/components/dashboard/team/member-table";
import { PendingInvitations } from "@/components/dashboard/team/pending-invitations";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { paginate } from "@/lib/dashboard/paginate";
import { dashboardSession } from "@/lib/dashboard/session";
import { listInvitations } from "@/lib/services/members/list-invitations";
import { listMembers } from "@/lib/services/members/list-members";

type Params = Promise<Record<string, string | string[] | undefined>>;

export default async function TeamPage({ searchParams }: { searchParams: Params }) {
  const params = await searchParams;
  const { session, ctx, canAdminister } = await dashboardSession();
  const [members, invitations] = await Promise.all([
    listMembers({ ctx }),
    canAdminister ? listInvitations({ ctx }) : null,
  ]);
  const page = paginate(members, params.page);

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
          <MemberTable
            members={page.items}
            viewer={{ userId: session.user.id, canAdminister, isOwner: session.role === "owner" }}
          />
          <PagePagination label="Member pages" page={page} params={params} />
        </CardContent>
      </Card>
    </div>
  );
}
