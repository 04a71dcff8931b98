"use client";

import {
  Activity,
  FlaskConical,
  KeyRound,
  LayoutDashboard,
  type LucideIcon,
  Plug,
  ScrollText,
  Settings,
  ShieldCheck,
  Users,
  Wallet,
  Webhook,
} from "lucide-react";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

/** Who sees which pages; the pages and verbs check again on the server. */
export interface NavAccess {
  admin: boolean;
  operator: boolean;
}

interface NavItem {
  href: string;
  label: string;
  icon: LucideIcon;
  needs?: keyof NavAccess;
}

const NAV: readonly NavItem[] = [
  { href: "/dashboard", label: "Overview", icon: LayoutDashboard },
  { href: "/dashboard/playground", label: "Playground", icon: FlaskConical },
  { href: "/dashboard/connect", label: "Connect", icon: Plug },
  { href: "/dashboard/keys", label: "Provider keys", icon: KeyRound },
  { href: "/dashboard/budgets", label: "Budgets", icon: Wallet, needs: "admin" },
  { href: "/dashboard/traces", label: "Traces", icon: Activity },
  { href: "/dashboard/webhooks", label: "Webhooks", icon: Webhook, needs: "admin" },
  { href: "/dashboard/audit", label: "Audit log", icon: ScrollText, needs: "admin" },
  { href: "/dashboard/team", label: "Team", icon: Users },
  { href: "/dashboard/settings", label: "Settings", icon: Settings },
  { href: "/dashboard/admin", label: "Admin", icon: ShieldCheck, needs: "operator" },
];

const isActive = (pathname: string, href: string) =>
  href === "/dashboard" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);

export function NavLinks({ access, onNavigate }: { access: NavAccess; onNavigate?: () => void }) {
  const pathname = usePathname();
  return (
    <ul className="flex flex-col gap-0.5">
      {NAV.filter((item) => !item.needs || access[item.needs]).map(({ href, label, icon: Icon }) => {
        const active = isActive(pathname, href);
        return (
          <li key={href}>
            <Link
              href={href}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={cn(
                "flex items-center gap-2.5 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
                active && "bg-accent text-foreground",
              )}
            >
              <Icon className="size-4" aria-hidden />
              {label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
