import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/sign-out-button";
import { SiteHeader } from "@/components/site-header";
import { currentSession } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await currentSession();
  if (!session) redirect("/signin");
  return (
    <>
      <SiteHeader>
        <span className="text-zinc-600 dark:text-zinc-400" data-testid="signed-in-as">
          {session.user.email}
        </span>
        <SignOutButton />
      </SiteHeader>
      <main className="mx-auto max-w-5xl px-6 py-10">{children}</main>
    </>
  );
}
