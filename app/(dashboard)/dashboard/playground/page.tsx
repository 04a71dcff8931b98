import { PageHeader } from "@/components/dashboard/page-header";
import { Playground } from "@/components/dashboard/playground/playground";
import { PLAYGROUND_TOOLS, type PlaygroundTool } from "@/lib/dashboard/playground-events";
import { dashboardSession } from "@/lib/dashboard/session";
import { providerStatus } from "@/lib/services/providers/provider-status";

export default async function PlaygroundPage() {
  const { ctx, canAdminister } = await dashboardSession();
  const { providers } = await providerStatus({ ctx });
  const usable = (tool: PlaygroundTool) =>
    providers.filter((p) => p.tools.includes(tool)).map((p) => ({ id: p.provider, name: p.name }));
  const byTool = Object.fromEntries(PLAYGROUND_TOOLS.map((tool) => [tool, usable(tool)])) as Record<
    PlaygroundTool,
    ReturnType<typeof usable>
  >;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Playground"
        description="Run any tool as your agents would, on this workspace's keys and budgets; every run is traced."
      />
      <Playground providers={byTool} canSeeTraces={canAdminister} />
    </div>
  );
}
