/**
 * The tools of each kind of provider, from the table's `providers`: the layers beneath the table speak of
 * provider kinds (search, fetch, answer, papers) and the transports name the tools through these functions,
 * so no tool list is kept by hand beside the table.
 */
import type { Env } from "@/lib/pipeline/capabilities";
import type { ProviderKind } from "@/lib/pipeline/providers/catalog";
import { operatorProvidersByKind } from "@/lib/pipeline/providers/operator-providers";
import type { providerStatus } from "@/lib/services/providers/provider-status";
import { TOOLS, type ToolName } from "./table";

type ProviderStatus = Awaited<ReturnType<typeof providerStatus>>;

/** The tools that run on providers of these kinds, kind by kind (one tool per kind: the table test holds it). */
export function toolsOfKinds(kinds: readonly ProviderKind[]): ToolName[] {
  return kinds.flatMap((kind) => TOOLS.filter((tool) => tool.providers === kind).map((tool) => tool.name));
}

/**
 * Provider status as `GET /api/v1/providers` and the `searchmux://providers` resource answer it: each
 * provider's kinds become the tools it serves (its `tools`, in the place the response has always had them).
 */
export function toProviderStatusResponse({ providers, all_providers_budgets }: ProviderStatus) {
  return {
    providers: providers.map(({ provider, name, available, kinds, ...rest }) => ({
      provider,
      name,
      available,
      tools: toolsOfKinds(kinds),
      ...rest,
    })),
    all_providers_budgets,
  };
}

/** Per tool that runs on providers, in the table's order, the ids of those the operator's environment can call. */
export function operatorProvidersByTool(env: Env): Array<[tool: ToolName, providerIds: string[]]> {
  const byKind = operatorProvidersByKind(env);
  return TOOLS.flatMap(
    (tool): Array<[ToolName, string[]]> => (tool.providers ? [[tool.name, byKind[tool.providers]]] : []),
  );
}
