import { MailOpen } from "lucide-react";
import Link from "next/link";
import { AcceptInvitation } from "@/components/invite/accept-invitation";
import { SiteHeader } from "@/components/site-header";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { currentSession } from "@/lib/auth/session";
import { acceptInvitationAction } from "@/lib/dashboard/actions/team";

export const dynamic = "force-dynamic";

/** An invitation link: sign in with the invited address, then accept. */
export default async function InvitePage({ params }: { params: Promise<{ secret: string }> }) {
  const { secret } = await params;
  const session = await currentSession();
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-md px-6 py-16">
        <Card>
          <CardHeader>
            <MailOpen className="size-8 text-primary" aria-hidden />
            <h1 className="text-xl font-semibold">You are invited to a Searchmux workspace</h1>
            <CardDescription>
              {session
                ? `You are signed in as ${session.user.email}. The invitation works only for the address it was sent to.`
                : "Sign in with the email address the invitation was sent to, then accept it here."}
            </CardDescription>
          </CardHeader>
          <CardContent>
            {session ? (
              <AcceptInvitation accept={acceptInvitationAction.bind(null, secret)} />
            ) : (
              <Button asChild>
                <Link href={`/signin?callbackUrl=${encodeURIComponent(`/invite/${secret}`)}`}>
                  Sign in to accept
                </Link>
              </Button>
            )}
          </CardContent>
        </Card>
      </main>
    </>
  );
}
