import { Skeleton } from "@/components/ui/skeleton";

/** What a dashboard page shows while its data loads: its title and the shape of its content. */
export function PageSkeleton({ title, blocks = 3 }: { title: string; blocks?: number }) {
  return (
    <div className="space-y-6" aria-busy="true" data-page-skeleton>
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        <Skeleton className="mt-2 h-4 w-72 max-w-full" />
      </div>
      <p className="sr-only" role="status">
        Loading {title.toLowerCase()}…
      </p>
      {Array.from({ length: blocks }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <Skeleton key={i} className="h-40 w-full" />
      ))}
    </div>
  );
}
