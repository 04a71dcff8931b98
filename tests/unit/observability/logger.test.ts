import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "@/lib/observability/logger";
import { inRequestScope } from "@/lib/observability/request-scope";

function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).trim().split("\n")) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger(stream, "debug") };
}

describe("logger", () => {
  it("tags lines with the request id of the async work they belong to", async () => {
    const { lines, logger } = capture();
    await Promise.all(
      ["r-1", "r-2"].map((requestId) =>
        inRequestScope({ requestId, tenantId: `t-${requestId}` }, async () => {
          await new Promise((resolve) => setTimeout(resolve, requestId === "r-1" ? 20 : 1));
          logger.info({ step: "after await" }, "work");
        }),
      ),
    );
    logger.info("outside");
    expect(lines.map((l) => [l.msg, l.request_id, l.tenant_id])).toEqual([
      ["work", "r-2", "t-r-2"],
      ["work", "r-1", "t-r-1"],
      ["outside", undefined, undefined],
    ]);
  });

  it("redacts credentials in messages, fields and errors", () => {
    const { lines, logger } = capture();
    const token = `smx_${"a".repeat(38)}`;
    logger.warn(`upstream said: GET https://api.example/search?api_key=sk-live-123456789&q=x with ${token}`);
    logger.info(
      { headers: { authorization: "Bearer sk-secret-abcdefgh", accept: "json" }, apiKey: "k-12345678" },
      "call",
    );
    logger.error(new Error("failed with Authorization: Bearer sk-secret-abcdefgh"), "boom");
    logger.error({ err: new Error(`token ${token} refused`), tool: "web_search" }, "tool failed");
    const text = JSON.stringify(lines);
    for (const secret of ["sk-live-123456789", token, "sk-secret-abcdefgh", "k-12345678"]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[1]).toMatchObject({
      headers: { authorization: "[redacted]", accept: "json" },
      apiKey: "[redacted]",
    });
    expect(lines[2]?.err).toMatchObject({ type: "Error" });
    expect(lines[3]).toMatchObject({ tool: "web_search", err: { message: "token [redacted] refused" } });
  });
});
