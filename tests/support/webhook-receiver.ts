/**
 * A webhook receiver for tests: an HTTP server on loopback that verifies every delivery the Standard Webhooks
 * way (its own HMAC over `{webhook-id}.{webhook-timestamp}.{body}` with the secret's decoded bytes, written
 * apart from the sender's signer), records it, and answers as told: a status per request in order (then
 * 200), or `hold` (never answers: the sender is killed meanwhile).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import { listenOnLoopback } from "./loopback-server";

interface ReceivedDelivery {
  id: string;
  timestamp: string;
  signatureValid: boolean;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  headers: IncomingMessage["headers"];
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedDelivery[];
  /** The secret deliveries are verified with (set once the webhook is created). */
  secret: string;
  /** Answers of the next requests, in order; `hold` never answers. */
  answers: Array<number | "hold">;
  close(): Promise<void>;
}

export function verifies(
  secret: string,
  id: string,
  timestamp: string,
  body: string,
  header: string,
): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return header.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    const given = Buffer.from(signature ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const receiver: Omit<WebhookReceiver, "url" | "close"> = { received: [], secret: "", answers: [] };
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const id = String(request.headers["webhook-id"] ?? "");
    const timestamp = String(request.headers["webhook-timestamp"] ?? "");
    receiver.received.push({
      id,
      timestamp,
      signatureValid: verifies(
        receiver.secret,
        id,
        timestamp,
        raw,
        String(request.headers["webhook-signature"] ?? ""),
      ),
      body: JSON.parse(raw),
      headers: request.headers,
    });
    const answer = receiver.answers.shift() ?? 200;
    if (answer === "hold") return;
    response.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "receiver failed");
  });
  const loopback = await listenOnLoopback(server);
  return Object.assign(receiver, { url: `${loopback.origin}/hooks`, close: loopback.close });
}
