import { SectionCard } from "@/components/dashboard/section-card";
import { Badge } from "@/components/ui/badge";
import { DestructiveAction } from "@/components/ui/destructive-action";
import { deleteLensAction } from "@/lib/dashboard/actions/lenses";
import type { Lens } from "@/lib/services/lenses/lens";
import { LensForm } from "./lens-form";

/** The lenses web_search accepts as `lens: "name"`: the built-in ones and the workspace's own. */
export function LensesCard({ lenses }: { lenses: readonly Lens[] }) {
  return (
    <SectionCard
      title="Lenses"
      description={
        <>
          Named domain sets for web search (<code className="font-mono">lens</code> in MCP, REST and the
          playground). A lens of your own with a built-in name replaces the built-in one.
        </>
      }
      contentClassName="space-y-6"
    >
      <ul className="divide-y" aria-label="Lenses">
        {lenses.map((lens) => (
          <li
            key={lens.name}
            className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between"
          >
            <div className="min-w-0 space-y-1">
              <div className="flex items-center gap-2">
                <code className="font-mono text-sm">{lens.name}</code>
                <Badge tone={lens.source === "tenant" ? "success" : "neutral"}>
                  {lens.source === "tenant" ? "yours" : "built-in"}
                </Badge>
                {lens.defaults.time_range ? <Badge tone="outline">{lens.defaults.time_range}</Badge> : null}
              </div>
              {lens.description ? <p className="text-sm text-muted-foreground">{lens.description}</p> : null}
              <p className="truncate text-xs text-muted-foreground">{lens.domains.join(", ")}</p>
            </div>
            {lens.source === "tenant" ? (
              <DestructiveAction
                text="Delete"
                label={`Delete lens ${lens.name}`}
                title={`Delete the lens "${lens.name}"?`}
                description="Searches that name it fail (or use the built-in lens of the same name)."
                confirmLabel="Delete lens"
                action={deleteLensAction.bind(null, lens.name)}
              />
            ) : null}
          </li>
        ))}
      </ul>
      <LensForm />
    </SectionCard>
  );
}
