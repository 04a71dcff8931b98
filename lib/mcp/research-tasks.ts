/**
 * MCP tasks (2025-11-25) over research jobs: a task is a job of the table (lib/services/research), so
 * tasks/get, tasks/result, tasks/list and tasks/cancel answer from Postgres on any instance, for as long as
 * the job is kept, with the same visibility as GET /api/v1/research. The server issues no sessions: a task
 * belongs to the workspace member who started it, not to a connection.
 */
import type { TaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { CallToolResult, Task } from "@modelcontextprotocol/sdk/types.js";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { cancelResearch } from "@/lib/services/research/cancel-research";
import { getResearch } from "@/lib/services/research/get-research";
import type { ResearchJobView } from "@/lib/services/research/job-view";
import { listResearch } from "@/lib/services/research/list-research";

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

export function taskOf(job: ResearchJobView): Task {
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

/** The task store of one request's server: the tenant's jobs the caller may see. */
export function researchTaskStore(
  ctx: TenantContext,
  result: (job: ResearchJobView) => CallToolResult,
): TaskStore {
  const find = async (taskId: string) => {
    if (!UUID.test(taskId)) return null;
    try {
      return await getResearch({ ctx, input: { id: taskId } });
    } catch (error) {
      if (error instanceof ServiceError && error.code === "not_found") return null;
      throw error;
    }
  };
  const existing = async (taskId: string) => {
    const job = await find(taskId);
    if (!job) throw new Error(`task ${taskId} not found`);
    return job;
  };
  return {
    async createTask() {
      throw new Error("tasks are created by calling the research tool");
    },
    getTask: async (taskId) => {
      const answered = answeredResult(taskId);
      if (answered) return { ...answeredTask(answered), taskId };
      const job = await find(taskId);
      return job && taskOf(job);
    },
    async storeTaskResult() {
      throw new Error("a research job stores its own result");
    },
    getTaskResult: async (taskId) => {
      const answered = answeredResult(taskId);
      if (answered) return answered;
      const job = await existing(taskId);
      // A failed or cancelled job is the tool's error: its text says why, the job is still attached.
      return { ...result(job), ...(job.status !== "succeeded" && { isError: true }) };
    },
    async updateTaskStatus(taskId, status) {
      if (status !== "cancelled") throw new Error(`a client may only cancel a task, not set it ${status}`);
      await cancelResearch({ ctx, input: { id: taskId } });
    },
    async listTasks() {
      const { jobs } = await listResearch({ ctx, input: { limit: 100 } });
      return { tasks: jobs.map(taskOf) };
    },
  };
}
