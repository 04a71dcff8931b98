import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";

/** Previous / next links for a list split into pages; nothing when everything fits on one. */
export function Pagination({
  label,
  summary,
  previousHref,
  nextHref,
}: {
  label: string;
  summary: string;
  previousHref?: string;
  nextHref?: string;
}) {
  if (!previousHref && !nextHref) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2 pt-3 text-sm">
      <span className="text-muted-foreground">{summary}</span>
      <div className="flex gap-2">
        <PageLink href={previousHref} rel="prev">
          <ChevronLeft aria-hidden /> Previous
        </PageLink>
        <PageLink href={nextHref} rel="next">
          Next <ChevronRight aria-hidden />
        </PageLink>
      </div>
    </nav>
  );
}

function PageLink({ href, rel, children }: { href?: string; rel: string; children: ReactNode }) {
  if (!href) {
    return (
      <Button variant="outline" size="sm" disabled>
        {children}
      </Button>
    );
  }
  return (
    <Button variant="outline" size="sm" asChild>
      <Link href={href} rel={rel} scroll={false}>
        {children}
      </Link>
    </Button>
  );
}
