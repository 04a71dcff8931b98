import { SearchX } from "lucide-react";
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

export default function TraceNotFound() {
  return (
    <EmptyState icon={SearchX} title="Trace not found">
      It may have passed the workspace's retention period, or belong to another workspace.{" "}
      <Link href="/dashboard/traces" className="text-primary hover:underline">
        All traces
      </Link>
    </EmptyState>
  );
}
