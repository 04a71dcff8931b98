import type { ServerNotification } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { withHeartbeat } from "@/lib/mcp/progress";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("withHeartbeat", () => {
  it("sends increasing progress for the client's token until the call settles", async () => {
    const sent: ServerNotification[] = [];
    const extra = {
      _meta: { progressToken: "p-1" },
      sendNotification: async (notification: ServerNotification) => {
        sent.push(notification);
      },
    };
    const result = await withHeartbeat(extra, "answer", () => sleep(75).then(() => "done"), 20);
    expect(result).toBe("done");
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(sent[0]).toMatchObject({
      method: "notifications/progress",
      params: { progressToken: "p-1", progress: 1, message: expect.stringMatching(/^answer still running/) },
    });
    expect(sent.map((n) => (n.params as { progress: number }).progress)).toEqual(sent.map((_, i) => i + 1));
    const count = sent.length;
    await sleep(60);
    expect(sent).toHaveLength(count);
  });

  it("sends nothing without a progress token, and stops when the call fails", async () => {
    const sent: ServerNotification[] = [];
    const sendNotification = async (notification: ServerNotification) => {
      sent.push(notification);
    };
    await withHeartbeat({ sendNotification }, "fetch", () => sleep(50), 10);
    expect(sent).toEqual([]);
    await expect(
      withHeartbeat(
        { _meta: { progressToken: 1 }, sendNotification },
        "fetch",
        () => Promise.reject(new Error("boom")),
        10,
      ),
    ).rejects.toThrow("boom");
    await sleep(30);
    expect(sent).toEqual([]);
  });
});
