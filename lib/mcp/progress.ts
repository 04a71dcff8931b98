/**
 * MCP: keeps a long tool call (answer, fetch) visibly alive. When the client sent a progressToken, a
 * progress notification goes out every few seconds until the call settles, so clients that reset their
 * request timeout on progress do not give up on a two-minute answer. (The transport's SSE keep-alive
 * comments cover proxies either way.) The answer verb does not expose runAnswer's per-provider
 * `onProgress`, so these are heartbeats rather than "provider X answered".
 */
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";

export const HEARTBEAT_MS = 5_000;

type Extra = Pick<RequestHandlerExtra<ServerRequest, ServerNotification>, "_meta" | "sendNotification">;

export async function withHeartbeat<T>(
  extra: Extra,
  tool: string,
  run: () => Promise<T>,
  intervalMs = HEARTBEAT_MS,
): Promise<T> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return run();
  const started = Date.now();
  let beats = 0;
  const timer = setInterval(() => {
    beats += 1;
    const seconds = Math.round((Date.now() - started) / 1000);
    extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken, progress: beats, message: `${tool} still running after ${seconds} s` },
      })
      // A closed stream only means the client left; the call itself carries on to settle its charges.
      .catch(() => clearInterval(timer));
  }, intervalMs);
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}
