/**
 * What a tool result carries for the model: the readable text, then — for tools that return web
 * content — the untrusted-content note as a second block. With a single text block, @langchain/mcp-adapters
 * 1.x pastes structuredContent into the model's copy of the text (docs/decisions.md, "What MCP clients
 * show the model"), so the split is what keeps a LangChain agent's result at the size of the text.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { mcpTool } from "@/lib/mcp/define-tool";
import { newMcpServer } from "@/lib/mcp/revision-2025";
import { formatBudgetStatus, formatSearch, UNTRUSTED_NOTE } from "@/lib/tools/format";
import type { BudgetStatusResponse, SearchResponse } from "@/lib/tools/responses";
import { tools } from "@/lib/tools/table";

const search: SearchResponse = {
  query: "rust async runtime",
  results: [],
  providers_succeeded: [{ provider: "duckduckgo", duration_ms: 120, count: 0 }],
  providers_failed: [],
  providers_skipped: [],
  adjustments: [],
  cache_hit: false,
  trace_id: null,
  duration_ms: 130,
};
const status: BudgetStatusResponse = { budgets: [], providers: [], alerts: [] };

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A client of a server with web_search and budget_status answered by fixed responses. */
async function connect(): Promise<Client> {
  const server = newMcpServer("test");
  mcpTool(tools.web_search).registerRunner(server, async () => search);
  mcpTool(tools.budget_status).registerRunner(server, async () => status);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "define-tool-test", version: "1.0.0" });
  await client.connect(clientSide);
  await client.listTools(); // the client then validates structuredContent against the output schema
  clients.push(client);
  return client;
}

describe("a tool result's content", () => {
  it("is the rendering, then the untrusted-content note, for a tool that returns web content", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "web_search", arguments: { query: "rust async runtime" } });
    expect(result.content).toEqual([
      { type: "text", text: formatSearch(search) },
      { type: "text", text: UNTRUSTED_NOTE },
    ]);
    expect(result.structuredContent).toEqual(search);
  });

  it("is the rendering alone for budget_status, which returns no web content", async () => {
    const client = await connect();
    const result = await client.callTool({ name: "budget_status", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: formatBudgetStatus(status) }]);
  });
});
