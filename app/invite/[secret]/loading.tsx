import { PageSkeleton } from "@/components/dashboard/page-skeleton";

export default function Loading() {
  return (
    <main className="mx-auto max-w-md px-6 py-16">
      <PageSkeleton title="Invitation" blocks={1} />
    </main>
  );
}
