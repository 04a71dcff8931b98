/**
 * MCP tasks (2025-11-25) over jobs: a task is a job of the table (research, a large crawl;
 * lib/services/research/job-lease.ts), so tasks/get, tasks/result, tasks/list and tasks/cancel answer from
 * Postgres on any instance, for as long as the job is kept, with the same visibility as the REST routes
 * (GET /api/v1/research/<id>, GET /api/v1/crawl/<id>). The server issues no sessions: a task belongs to the
 * workspace member who started it, not to a connection. Nor does it send notifications/tasks/status: a
 * stateless server has no stream open once the task-augmented call has answered, so clients poll tasks/get
 * (pollInterval), and webhooks push the outcome.
 */
import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { CallToolResult, Task } from "@modelcontextprotocol/sdk/types.js";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import type { JobStatusView } from "@/lib/services/research/job-view";
import type { McpTool } from "./define-tool";

/** How often clients are told to poll. */
const TASK_POLL_MS = 2_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A job tool's call that starts no job (`estimate: true`) still answers as a task, one complete at once:
 * its result travels in its id, so tasks/get and tasks/result answer it on any instance with nothing stored.
 */
const ANSWERED = "answered-";

export function answeredTask(result: CallToolResult): Task {
  const at = new Date().toISOString();
  return {
    taskId: `${ANSWERED}${Buffer.from(JSON.stringify(result)).toString("base64url")}`,
    status: "completed",
    ttl: null,
    createdAt: at,
    lastUpdatedAt: at,
    pollInterval: TASK_POLL_MS,
  };
}

/** The result an answered task carries, or undefined for any other id (a malformed one included). */
function answeredResult(taskId: string): CallToolResult | undefined {
  if (!taskId.startsWith(ANSWERED)) return undefined;
  try {
    const result = JSON.parse(Buffer.from(taskId.slice(ANSWERED.length), "base64url").toString("utf8"));
    return typeof result === "object" && result !== null && Array.isArray(result.content)
      ? result
      : undefined;
  } catch {
    return undefined;
  }
}

export function taskOf(job: JobStatusView): Task {
  const status = ({ queued: "working", running: "working", succeeded: "completed" } as const)[
    job.status as "queued" | "running" | "succeeded"
  ];
  return {
    taskId: job.id,
    status: status ?? (job.status as "failed" | "cancelled"),
    // Jobs are kept as long as traces (the workspace's retention); no fixed lifetime to promise.
    ttl: null,
    createdAt: job.created_at,
    lastUpdatedAt: job.finished_at ?? job.started_at ?? job.created_at,
    pollInterval: TASK_POLL_MS,
    statusMessage: job.error ?? job.progress.message,
  };
}

/** The task store of one request's server: the jobs of the tenant's job tools that the caller may see. */
export function jobTaskStore(ctx: TenantContext, tools: readonly McpTool[]): TaskStore {
  const jobTools = tools.flatMap((tool) => (tool.jobs ? [{ tool, jobs: tool.jobs }] : []));
  const find = async (taskId: string) => {
    if (!UUID.test(taskId)) return null;
    for (const { tool, jobs } of jobTools) {
      try {
        return { tool, job: await jobs.read(ctx, { id: taskId }) };
      } catch (error) {
        // Another kind's job (or none): the next tool's kind may have it.
        if (!(error instanceof ServiceError && error.code === "not_found")) throw error;
      }
    }
    return null;
  };
  const existing = async (taskId: string) => {
    const found = await find(taskId);
    if (!found) throw new Error(`task ${taskId} not found`);
    return found;
  };
  return {
    async createTask() {
      throw new Error("tasks are created by calling a job tool");
    },
    getTask: async (taskId) => {
      const answered = answeredResult(taskId);
      if (answered) return { ...answeredTask(answered), taskId };
      const found = await find(taskId);
      return found && taskOf(found.job);
    },
    async storeTaskResult() {
      throw new Error("a job stores its own result");
    },
    getTaskResult: async (taskId) => {
      const answered = answeredResult(taskId);
      if (answered) return answered;
      const { tool, job } = await existing(taskId);
      // A failed or cancelled job is the tool's error: its text says why, the job is still attached.
      const result = tool.result(job as unknown as Record<string, unknown>);
      return { ...result, ...(job.status !== "succeeded" && { isError: true }) };
    },
    async updateTaskStatus(taskId, status) {
      if (status !== "cancelled") throw new Error(`a client may only cancel a task, not set it ${status}`);
      const { tool } = await existing(taskId);
      await tool.jobs?.cancel(ctx, { id: taskId });
    },
    async listTasks() {
      const lists = await Promise.all(jobTools.map(({ jobs }) => jobs.list(ctx, 100)));
      const jobs = lists.flat().sort((a, b) => b.created_at.localeCompare(a.created_at));
      return { tasks: jobs.slice(0, 100).map(taskOf) };
    },
  };
}
