/**
 * What a connection's `tools/list` costs a model before it does anything: the bytes of the answer, listed by
 * the real SDK server to the real SDK client (in memory), as a client of the 2025 revisions receives it. The
 * token estimate is bytes / 4, the usual rule of thumb for English and JSON. The Connect page shows it, the
 * bench prints it, and a unit test bounds it (docs/decisions.md, "A small tool list").
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { TenantContext } from "@/lib/pipeline/context";
import { newMcpServer, registerTool } from "./revision-2025";
import { toolsFor } from "./tools";

export interface ToolListSize {
  bytes: number;
  /** bytes / 4, rounded up. */
  tokens: number;
  /** Each listed tool's own entry, in bytes. */
  perTool: Record<string, number>;
}

const refuse = () => Promise.reject(new Error("a size measurement calls no tool"));

export async function toolListSize(
  connection: Pick<TenantContext, "scopes" | "profile">,
): Promise<ToolListSize> {
  const server = newMcpServer("");
  for (const tool of toolsFor(connection)) {
    registerTool(server, {
      name: tool.name,
      config: tool.configFor(connection.profile?.defaults?.[tool.name]),
      call: refuse,
    });
  }
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: "tool-list-size", version: "1" });
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const listed = await client.listTools();
    const bytes = Buffer.byteLength(JSON.stringify(listed));
    const perTool = Object.fromEntries(
      listed.tools.map((tool) => [tool.name, Buffer.byteLength(JSON.stringify(tool))]),
    );
    return { bytes, tokens: Math.ceil(bytes / 4), perTool };
  } finally {
    await client.close();
  }
}
