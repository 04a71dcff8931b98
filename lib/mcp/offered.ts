/**
 * MCP: what a server offers, as every protocol revision's adapter (revision-2025.ts, revision-2026-07-28.ts)
 * receives it from build-server.ts and define-tool.ts. Shapes only: the adapters and the builders stand on
 * this module, not on each other.
 */
import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { CallToolResult, GetPromptResult, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { JobStatusView } from "@/lib/services/research/job-view";
import type { ProgressSink } from "./progress";

/** What a call needs from the SDK's handler context: v1's `extra` as it is, v2's adapted to it. */
export type CallExtra = ProgressSink & { signal: AbortSignal };

/** The registration config of a tool, the same in both revisions (widened from the table entry's types). */
export interface ToolConfig {
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  annotations: { readOnlyHint: boolean; openWorldHint: boolean };
}

/** A tool as one server offers it: what a revision's adapter registers. */
export interface OfferedTool {
  name: string;
  /** One object per tool and process, whichever server offers it (the 2026-07-28 adapter caches by it). */
  config: ToolConfig;
  call(args: unknown, extra: CallExtra): Promise<CallToolResult>;
  /**
   * A job that outlives the request (research, a large crawl): started, with its progress reported while the
   * request lasts. A revision with tasks registers the tool as a task tool over it; one without registers
   * `call`, which waits for the job. `startsJob` says which calls start one (the others are answered by
   * `call`, as a task complete at once).
   */
  startJob?(args: unknown, extra: CallExtra): Promise<JobStatusView>;
  startsJob?(args: unknown): boolean;
}

/** A resource as one server offers it (the providers' status). */
export interface OfferedResource {
  name: string;
  uri: string;
  config: { title: string; description: string; mimeType: string };
  read(uri: URL): Promise<ReadResourceResult>;
}

/** A prompt as one server offers it (prompts.ts): its string arguments as a zod shape, and its messages. */
export interface OfferedPrompt {
  name: string;
  /** The tools its messages use: it is offered only where the connection lists them all. */
  tools: readonly string[];
  config: { title: string; description: string };
  args: Record<string, z.ZodType<string | undefined>>;
  get(args: Record<string, string | undefined>): GetPromptResult;
}

/** One protocol revision's SDK: how its server is made and what it is given registered. */
export interface Revision<Server> {
  /** A server with Searchmux's identity and limits (server-options.ts), offering `tasks` when given. */
  newServer(instructions: string, tasks?: TaskStore): Server;
  registerTool(server: Server, tool: OfferedTool): void;
  registerResource(server: Server, resource: OfferedResource): void;
  registerPrompt(server: Server, prompt: OfferedPrompt): void;
}
