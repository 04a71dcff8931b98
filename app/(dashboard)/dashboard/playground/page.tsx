import { PageHeader } from "@/components/dashboard/page-header";
import { Playground } from "@/components/dashboard/playground/playground";
import { baseUrl } from "@/lib/dashboard/base-url";
import type { PlaygroundToolOption } from "@/lib/dashboard/playground-events";
import { PLAYGROUND_TOOLS } from "@/lib/dashboard/playground-run";
import { dashboardSession } from "@/lib/dashboard/session";
import type { ProviderKind } from "@/lib/pipeline/providers/catalog";
import { providerStatus } from "@/lib/services/providers/provider-status";
import { tools as toolTable } from "@/lib/tools/table";

export default async function PlaygroundPage() {
  const { ctx } = await dashboardSession();
  const { providers } = await providerStatus({ ctx });
  const serving = (kind: ProviderKind | null) =>
    providers
      .filter((p) => kind !== null && p.kinds.includes(kind))
      .map((p) => ({ id: p.provider, name: p.name }));
  const tools = PLAYGROUND_TOOLS.map(
    (tool): PlaygroundToolOption => ({
      name: tool.name,
      title: tool.title,
      providers: serving(tool.providers),
      rest: { method: tool.rest.method, path: tool.rest.path },
    }),
  );
  return (
    <div className="space-y-6">
      <PageHeader
        title="Playground"
        description="Run any tool as your agents would, on this workspace's keys and budgets; every run is traced."
      />
      {/* A research job searches with web_search's providers. */}
      <Playground
        tools={tools}
        researchProviders={serving(toolTable.web_search.providers)}
        researchRoute={{ method: toolTable.research.rest.method, path: toolTable.research.rest.path }}
        apiBase={await baseUrl()}
      />
    </div>
  );
}
