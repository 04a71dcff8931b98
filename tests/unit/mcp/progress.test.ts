import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { withProgress } from "@/lib/mcp/progress";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recorder(progressToken?: string | number) {
  const sent: ServerNotification[] = [];
  return {
    sent,
    extra: {
      _meta: progressToken === undefined ? undefined : { progressToken },
      sendNotification: async (notification: ServerNotification) => {
        sent.push(notification);
      },
    },
  };
}
const messages = (sent: ServerNotification[]) => sent.map((n) => (n.params as { message: string }).message);

describe("withProgress", () => {
  it("reports each provider attempt as it finishes, with increasing progress", async () => {
    const { sent, extra } = recorder("p-1");
    const result = await withProgress(
      extra,
      "web_search",
      async (onProgress) => {
        onProgress?.({
          provider: "brave",
          kind: "search",
          start_offset_ms: 0,
          duration_ms: 212.4,
          outcome: "ok",
        });
        onProgress?.({
          provider: "exa",
          kind: "search",
          start_offset_ms: 0,
          duration_ms: 0,
          outcome: "skipped_budget",
        });
        return "done";
      },
      { heartbeat: false },
    );
    expect(result).toBe("done");
    expect(messages(sent)).toEqual(["brave: ok in 212 ms", "exa: skipped budget in 0 ms"]);
    expect(sent.map((n) => n.params)).toMatchObject([
      { progressToken: "p-1", progress: 1 },
      { progressToken: "p-1", progress: 2 },
    ]);
  });

  it("sends heartbeats for slow tools until the call settles", async () => {
    const { sent, extra } = recorder("p-2");
    await withProgress(extra, "answer", () => sleep(75), { heartbeat: true, intervalMs: 20 });
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(messages(sent)[0]).toMatch(/^answer still running/);
    const count = sent.length;
    await sleep(60);
    expect(sent).toHaveLength(count);
  });

  it("sends nothing without a progress token, and stops when the call fails", async () => {
    const silent = recorder();
    await withProgress(
      silent.extra,
      "fetch",
      async (onProgress) => {
        expect(onProgress).toBeUndefined();
        await sleep(30);
      },
      { heartbeat: true, intervalMs: 10 },
    );
    expect(silent.sent).toEqual([]);
    const failing = recorder(1);
    await expect(
      withProgress(failing.extra, "fetch", () => Promise.reject(new Error("boom")), {
        heartbeat: true,
        intervalMs: 10,
      }),
    ).rejects.toThrow("boom");
    await sleep(30);
    expect(failing.sent).toEqual([]);
  });
});
