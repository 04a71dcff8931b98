import { BookOpen } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { MobileNav } from "@/components/dashboard/mobile-nav";
import { NavLinks } from "@/components/dashboard/nav-links";
import { ThemeToggle } from "@/components/dashboard/theme-toggle";
import { SignOutButton } from "@/components/sign-out-button";
import { Badge } from "@/components/ui/badge";
import { dashboardSession, userSystemContext } from "@/lib/dashboard/session";
import { isOperator } from "@/lib/services/admin/operator";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const { session, canAdminister } = await dashboardSession();
  const access = { admin: canAdminister, operator: await isOperator({ ctx: await userSystemContext() }) };
  return (
    <div className="min-h-screen">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-card focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="sticky top-0 z-40 border-b bg-background/95 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-4">
          <MobileNav access={access} />
          <Link href="/dashboard" className="text-lg font-semibold tracking-tight">
            Searchmux
          </Link>
          <div className="ml-auto flex items-center gap-2 text-sm">
            <span className="hidden truncate text-muted-foreground sm:inline" data-testid="signed-in-as">
              {session.user.email}
            </span>
            <Badge tone="outline" className="hidden sm:inline-flex">
              {session.role}
            </Badge>
            <Link
              href="/docs/api"
              className="inline-flex items-center gap-1.5 rounded-md px-2 py-1.5 text-muted-foreground hover:bg-accent hover:text-foreground"
            >
              <BookOpen className="size-4" aria-hidden />
              <span className="sr-only sm:not-sr-only">API reference</span>
            </Link>
            <ThemeToggle />
            <SignOutButton />
          </div>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl">
        <aside className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-56 shrink-0 overflow-y-auto border-r p-3 md:block">
          <nav aria-label="Dashboard">
            <NavLinks access={access} />
          </nav>
        </aside>
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-8 sm:py-8">
          {children}
        </main>
      </div>
    </div>
  );
}
