import { Lock } from "lucide-react";
import type { ReactNode } from "react";
import { EmptyState } from "@/components/ui/empty-state";

/** Shown in place of something the signed-in user's role may not see or change. */
export function RestrictedNotice({ title, children }: { title: string; children: ReactNode }) {
  return (
    <EmptyState icon={Lock} title={title}>
      {children}
    </EmptyState>
  );
}
