import { PageHeader } from "@/components/dashboard/page-header";
import { Playground } from "@/components/dashboard/playground/playground";
import type { PlaygroundToolOption } from "@/lib/dashboard/playground-events";
import { PLAYGROUND_TOOLS } from "@/lib/dashboard/playground-run";
import { dashboardSession } from "@/lib/dashboard/session";
import { providerStatus } from "@/lib/services/providers/provider-status";

export default async function PlaygroundPage() {
  const { ctx } = await dashboardSession();
  const { providers } = await providerStatus({ ctx });
  const serving = (tool: string) =>
    providers.filter((p) => p.tools.includes(tool)).map((p) => ({ id: p.provider, name: p.name }));
  const tools = PLAYGROUND_TOOLS.map(
    (tool): PlaygroundToolOption => ({ name: tool.name, title: tool.title, providers: serving(tool.name) }),
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Playground"
        description="Run any tool as your agents would, on this workspace's keys and budgets; every run is traced."
      />
      {/* A research job searches with web_search's providers. */}
      <Playground tools={tools} researchProviders={serving("web_search")} />
    </div>
  );
}
