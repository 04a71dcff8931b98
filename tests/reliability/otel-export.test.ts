/**
 * Security M4 against `next start`: with OTEL_EXPORTER_OTLP_ENDPOINT set, what leaves the process for the
 * OTLP endpoint carries no credential that arrived in a URL — the MCP token path, GPT-Researcher's
 * `?api_key=` and an invitation link — in any span name or attribute, while the spans of those requests
 * (Next.js' own and our tool-call span) do arrive. The receiver is a real OTLP/HTTP endpoint
 * (`POST /v1/traces`, the JSON encoding, which @vercel/otel sends for OTEL_EXPORTER_OTLP_PROTOCOL=http/json).
 */
import { once } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inviteMember } from "@/lib/services/members/invite-member";
import { mcpHeaders, toolCallBody } from "./support/mcp";
import type { NextServer } from "./support/next-server";
import { type Stack, startStack } from "./support/stack";
import { type SeededTenant, seedTenant } from "./support/tenant";

const SETUP_MS = 10 * 60_000;
/**
 * Spans leave in batches every OTEL_BSP_SCHEDULE_DELAY (200 ms here); a busy 2-core machine can still
 * take seconds to end, batch and post them, so the wait is bounded by their arrival, with a generous cap.
 */
const ARRIVAL_TIMEOUT_MS = 60_000;

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}
interface OtlpSpan {
  name: string;
  attributes?: OtlpAttribute[];
}
interface OtlpExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: OtlpSpan[] }> }>;
}

/** A local OTLP/HTTP traces endpoint keeping every body it received, as sent. */
async function startOtlpReceiver() {
  const bodies: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces") {
        bodies.push(Buffer.concat(chunks).toString("utf8"));
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else {
        response.writeHead(404).end();
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    /** Everything received so far, as one text: what a collector (and whoever reads it) would hold. */
    payload: () => bodies.join("\n"),
    spans: (): OtlpSpan[] =>
      bodies.flatMap((body) =>
        ((JSON.parse(body) as OtlpExport).resourceSpans ?? []).flatMap((resource) =>
          (resource.scopeSpans ?? []).flatMap((scope) => scope.spans ?? []),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const attribute = (span: OtlpSpan, key: string) =>
  span.attributes?.find((a) => a.key === key)?.value.stringValue;

describe("OpenTelemetry export from next start", () => {
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let stack: Stack;
  let server: NextServer;
  let tenant: SeededTenant;
  let invitationSecret: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    stack = await startStack({
      providerLatencyMs: 5,
      instanceEnv: () => ({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_BSP_SCHEDULE_DELAY: "200",
      }),
    });
    const [first] = stack.servers;
    if (!first) throw new Error("no instance");
    server = first;
    tenant = await seedTenant(stack.platform, { name: "otel" });
    invitationSecret = (
      await inviteMember({ ctx: tenant.ctx, input: { email: "otel-invitee@example.com", role: "member" } })
    ).secret;
  }, SETUP_MS);
  afterAll(async () => {
    await stack?.close();
    await receiver?.close();
  });

  it(
    "exports the spans of token-bearing URLs with the token redacted everywhere",
    async () => {
      // The URL form: the token only in the path.
      const { authorization: _bearer, ...headers } = mcpHeaders(tenant.token);
      const mcp = await fetch(`${server.url}/api/mcp/t/${tenant.token}`, {
        method: "POST",
        headers,
        body: toolCallBody("web_search", { query: "otel redaction" }),
      });
      expect(mcp.status).toBe(200);
      await mcp.text();
      const researcher = await fetch(
        `${server.url}/api/researcher?query=otel+redaction&api_key=${tenant.token}`,
      );
      expect(researcher.status).toBe(200);
      await researcher.text();
      const invitation = await fetch(`${server.url}/invite/${invitationSecret}`);
      expect(invitation.status).toBe(200);
      await invitation.text();

      // Each request's server span, the one holding the requested URL, gets `http.route` when it ends.
      const routeSpan = (route: string) => (span: OtlpSpan) => attribute(span, "http.route") === route;
      const arrived = () => {
        const spans = receiver.spans();
        return (
          spans.some(routeSpan("/api/mcp/t/[token]")) &&
          spans.some(routeSpan("/api/researcher")) &&
          spans.some(routeSpan("/invite/[secret]")) &&
          spans.filter((span) => span.name === "searchmux.tool_call").length >= 2
        );
      };
      const deadline = Date.now() + ARRIVAL_TIMEOUT_MS;
      while (!arrived()) {
        if (Date.now() > deadline) {
          throw new Error(`spans did not arrive; received:\n${receiver.payload().slice(0, 4_000)}`);
        }
        await sleep(100);
      }

      // Names and attribute values that hold a secret (a short failure message), then the whole payload.
      const secrets = [tenant.token, invitationSecret];
      const leaks = receiver
        .spans()
        .flatMap((span) => [span.name, ...(span.attributes ?? []).map((a) => a.value.stringValue ?? "")])
        .filter((text) => secrets.some((secret) => text.includes(secret)));
      expect(leaks).toEqual([]);
      const payload = receiver.payload();
      for (const secret of secrets) expect(payload.includes(secret)).toBe(false);
      const targets = receiver
        .spans()
        .map((span) => attribute(span, "http.target"))
        .filter((target) => target !== undefined);
      expect(targets).toEqual(
        expect.arrayContaining([
          "/api/mcp/t/[redacted]",
          "/api/researcher?query=otel+redaction&api_key=[redacted]",
          "/invite/[redacted]",
        ]),
      );
    },
    ARRIVAL_TIMEOUT_MS + 30_000,
  );
});
