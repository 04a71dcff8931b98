/**
 * The tool list's size is paid for in every model's context before it does anything (#31): at most 12 KB at
 * full scope and 3 KB for a one-tool profile, whichever tool. Sizes are deterministic (the same schemas, the
 * same serialisation), so these bound bytes, not time.
 */
import { describe, expect, it } from "vitest";
import { toolListSize } from "@/lib/mcp/tool-list-size";
import { TOOLS } from "@/lib/mcp/tools";
import { SCOPES } from "@/lib/pipeline/context";

const FULL_SCOPE_MAX_BYTES = 12 * 1024;
const ONE_TOOL_MAX_BYTES = 3 * 1024;

describe("tools/list size", () => {
  it(`is at most ${FULL_SCOPE_MAX_BYTES} bytes at full scope`, async () => {
    const size = await toolListSize({ scopes: SCOPES });
    expect(Object.keys(size.perTool)).toEqual(TOOLS.map((tool) => tool.name));
    expect(size.bytes).toBeLessThanOrEqual(FULL_SCOPE_MAX_BYTES);
    expect(size.tokens).toBe(Math.ceil(size.bytes / 4));
  });

  it.each(TOOLS.map((tool) => tool.name))(
    `is at most ${ONE_TOOL_MAX_BYTES} bytes for a profile of %s alone`,
    async (tool) => {
      const size = await toolListSize({ scopes: SCOPES, profile: { tools: [tool] } });
      expect(Object.keys(size.perTool)).toEqual([tool]);
      expect(size.bytes).toBeLessThanOrEqual(ONE_TOOL_MAX_BYTES);
    },
  );

  it("shows a profile's defaults in the schema, at the cost of a few bytes", async () => {
    const plain = await toolListSize({ scopes: SCOPES, profile: { tools: ["web_search"] } });
    const defaulted = await toolListSize({
      scopes: SCOPES,
      profile: { tools: ["web_search"], defaults: { web_search: { region: "de" } } },
    });
    expect(defaulted.bytes - plain.bytes).toBe(Buffer.byteLength(',"default":"de"'));
  });
});
