/**
 * What `tools/list` costs a model's context (#31): bytes and ≈tokens (bytes / 4) at full scope and for a
 * profile of each tool alone, with the targets (≤ 12 KB full scope, ≤ 3 KB one tool). `npm run bench` prints
 * it after the other figures and keeps it in the results file; alone: `npx tsx bench/tool-list-size.ts`.
 */
import { toolListSize } from "@/lib/mcp/tool-list-size";
import { TOOLS } from "@/lib/mcp/tools";
import { SCOPES } from "@/lib/pipeline/context";

const FULL_SCOPE_TARGET_BYTES = 12 * 1024;
const ONE_TOOL_TARGET_BYTES = 3 * 1024;

interface SizeRow {
  profile: string;
  bytes: number;
  tokens: number;
  targetBytes: number;
  met: boolean;
}

export async function toolListSizes(): Promise<SizeRow[]> {
  const row = async (profile: string, tools: string[] | undefined, targetBytes: number): Promise<SizeRow> => {
    const { bytes, tokens } = await toolListSize({ scopes: SCOPES, profile: tools && { tools } });
    return { profile, bytes, tokens, targetBytes, met: bytes <= targetBytes };
  };
  return [
    await row("full scope", undefined, FULL_SCOPE_TARGET_BYTES),
    ...(await Promise.all(TOOLS.map((tool) => row(tool.name, [tool.name], ONE_TOOL_TARGET_BYTES)))),
  ];
}

export function printToolListSizes(rows: readonly SizeRow[]): void {
  console.log("\ntools/list size (≈tokens = bytes / 4)");
  for (const { profile, bytes, tokens, targetBytes, met } of rows) {
    const target = `≤ ${targetBytes / 1024} KB ${met ? "met" : "MISSED"}`;
    console.log(
      `  ${profile.padEnd(14)} ${String(bytes).padStart(6)} B  ≈${String(tokens).padStart(5)} tokens  ${target}`,
    );
  }
}

if (process.argv[1]?.endsWith("tool-list-size.ts")) {
  printToolListSizes(await toolListSizes());
  process.exit(0);
}
