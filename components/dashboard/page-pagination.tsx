import type { Page } from "@/lib/dashboard/paginate";
import { withParam } from "@/lib/dashboard/paginate";
import { Pagination } from "./pagination";

/** Pagination for a list paged by a `page` query parameter (see paginate). */
export function PagePagination({
  label,
  page,
  params,
  param = "page",
}: {
  label: string;
  page: Page<unknown>;
  params: Record<string, string | string[] | undefined>;
  param?: string;
}) {
  return (
    <Pagination
      label={label}
      summary={`Page ${page.page} of ${page.pages} · ${page.total} in all`}
      previousHref={page.page > 1 ? withParam(params, param, String(page.page - 1)) : undefined}
      nextHref={page.page < page.pages ? withParam(params, param, String(page.page + 1)) : undefined}
    />
  );
}
