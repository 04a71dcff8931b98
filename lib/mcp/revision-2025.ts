/**
 * MCP revisions 2025-03-26, 2025-06-18 and 2025-11-25 (and the 2024 ones the SDK still accepts) on the v1 SDK
 * (`@modelcontextprotocol/sdk`): the registration calls of what build-server.ts offers, with research jobs as
 * tasks where the request's revision has them (2025-11-25: `requestRevision`, `revisionHasTasks`).
 */
import type { TaskStore, ToolTaskHandler } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  type CallToolResult,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { answeredTask, taskOf } from "./job-tasks";
import type { OfferedTool, Revision } from "./offered";
import { SERVER_INFO, serverOptions } from "./server-options";

/** The revision that brought tasks; earlier ones have none. */
const TASKS_SINCE = "2025-11-25";

/**
 * The revision a request of this era speaks. `initialize` names the one the client asks for, and the server
 * answers with it when it serves it, else with its latest; every later request carries the negotiated one
 * in MCP-Protocol-Version (absent: 2025-03-26, as the transport specification says).
 */
export function requestRevision(message: unknown, protocolHeader: string | null): string {
  const initialize =
    typeof message === "object" && message !== null && "method" in message && message.method === "initialize"
      ? (message as { params?: { protocolVersion?: unknown } })
      : undefined;
  if (initialize === undefined) return protocolHeader ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
  const asked = initialize.params?.protocolVersion;
  return typeof asked === "string" && SUPPORTED_PROTOCOL_VERSIONS.includes(asked)
    ? asked
    : LATEST_PROTOCOL_VERSION;
}

/** Whether a revision of this era has tasks (revision dates compare as strings). */
export const revisionHasTasks = (revision: string) => revision >= TASKS_SINCE;

/**
 * An empty server with Searchmux's identity and limits; the stdio bridge builds on it too. With a task store
 * it offers tasks (list, cancel, task-augmented tools/call).
 */
export function newMcpServer(instructions: string, tasks?: TaskStore): McpServer {
  return new McpServer(SERVER_INFO, {
    ...serverOptions(instructions),
    ...(tasks && {
      taskStore: tasks,
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
    }),
  });
}

/**
 * A job tool is a task tool: a task-augmented call answers at once with the job as a task (the client polls
 * tasks/get and collects tasks/result); a plain call waits for the job (the SDK polls the task store), and is
 * sent the job's progress when the client asked for it.
 */
export function registerTool(
  server: McpServer,
  { name, config, call, startJob, startsJob }: OfferedTool,
): void {
  if (!startJob || !startsJob) {
    // The SDK writes `execution: {taskSupport: "forbidden"}` into every plain tool's entry: absent means the
    // same, and a tool list is read by models, byte by byte (docs/decisions.md, "A small tool list").
    server.registerTool(name, config, call).execution = undefined;
    return;
  }
  const handler: ToolTaskHandler<z.ZodObject> = {
    // A call that starts no job (an estimate, a crawl a request can finish) is answered at once, as a task
    // already complete.
    createTask: async (input, extra) => ({
      task: startsJob(input) ? taskOf(await startJob(input, extra)) : answeredTask(await call(input, extra)),
    }),
    getTask: (_input, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_input, extra) =>
      (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
  };
  server.experimental.tasks.registerToolTask(
    name,
    { ...config, execution: { taskSupport: "optional" } },
    handler,
  );
}

/**
 * Built with `buildServer(ctx, revision2025, { tasks })` (http.ts): this module takes only types from build-server.ts,
 * whose tool list reaches define-tool.ts, which registers the stdio bridge's runners through `registerTool`.
 */
export const revision2025: Revision<McpServer> = {
  newServer: newMcpServer,
  registerTool,
  registerResource: (server, { name, uri, config, read }) => server.registerResource(name, uri, config, read),
  // The v1 SDK takes the arguments as a raw zod shape.
  registerPrompt: (server, { name, config, args, get }) =>
    server.registerPrompt(name, { ...config, argsSchema: args }, (parsed) => get(parsed)),
};
