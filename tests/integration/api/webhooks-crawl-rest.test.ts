/**
 * Webhooks and crawl jobs over REST, through the real route handlers and token wrapper: statuses (201 with
 * the secret once, 202 for a test event and a crawl job with its Location, 400 for a refused URL, 403 without
 * the scope, 404 for another workspace's webhook or job) and the shapes the OpenAPI document names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteMethod } from "@/lib/api/route-methods";
import { type CrawlSite, startCrawlSite } from "@/tests/fakes/crawl-site";
import { serveRequest } from "@/tests/support/app-routes";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const app = inProcessApp("webhooks-rest", { database: "fresh" });
let site: CrawlSite;
let receiver: WebhookReceiver;
let admin: string;
let member: string;
let other: string;

async function call(token: string, path: string, method: RouteMethod = "GET", body?: unknown) {
  const response = await serveRequest(routeRequest(`/api/v1/${path}`, { method, token, body }));
  return { status: response.status, headers: response.headers, body: await response.json() };
}

beforeAll(async () => {
  site = await startCrawlSite();
  receiver = await startWebhookReceiver();
  await app.start({ SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" });
  const ctx = await operatorWorkspace("hooks", "rest", ["admin", "fetch", "search"]);
  admin = await newToken(ctx, { name: "admin", scopes: ["admin", "fetch"] });
  member = await newToken(ctx, { name: "member", scopes: ["fetch"] });
  other = await newToken(await operatorWorkspace("other", "rest", ["admin", "fetch"]), {
    name: "other",
    scopes: ["admin", "fetch"],
  });
});

afterAll(async () => {
  await app.stop();
  await receiver?.close();
  await site?.close();
});

describe("webhooks over REST", () => {
  it("creates (201, the secret once), lists without it, tests (202), logs and deletes", async () => {
    const created = await call(admin, "webhooks", "POST", { url: receiver.url, events: ["crawl.completed"] });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    const listed = await call(admin, "webhooks");
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
    const tested = await call(admin, `webhooks/${created.body.id}/test`, "POST");
    expect(tested).toMatchObject({ status: 202, body: { event: "webhook.test", status: "pending" } });
    const log = await call(admin, `webhooks/${created.body.id}/deliveries?limit=5`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries).toEqual([expect.objectContaining({ id: tested.body.id })]);
    expect((await call(other, `webhooks/${created.body.id}/deliveries`)).status).toBe(404);
    expect((await call(other, `webhooks/${created.body.id}`, "DELETE")).status).toBe(404);
    expect((await call(admin, `webhooks/${created.body.id}`, "DELETE")).body).toEqual({ deleted: true });
  });

  it("refuses a private endpoint (400) and callers without admin (403)", async () => {
    const refused = await call(admin, "webhooks", "POST", {
      url: "http://10.0.0.1/in",
      events: ["key.invalid"],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/^webhook URL refused: /);
    expect((await call(admin, "webhooks", "POST", { url: receiver.url, events: ["nope"] })).status).toBe(400);
    expect((await call(member, "webhooks")).status).toBe(403);
  });
});

describe("crawl jobs over REST", () => {
  it("answers async: true with 202 and the job's Location; GET reads it, others get 404", async () => {
    const started = await call(admin, "crawl", "POST", { url: `${site.origin}/big-start`, async: true });
    expect(started.status).toBe(202);
    expect(started.headers.get("location")).toBe(`/api/v1/crawl/${started.body.id}`);
    expect(started.body).toMatchObject({ status: "queued", progress: { pages_done: 0 } });
    const read = await call(admin, `crawl/${started.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(started.body.id);
    // Another token of no member sees only its own jobs.
    expect((await call(member, `crawl/${started.body.id}`)).status).toBe(404);
    expect((await call(other, `crawl/${started.body.id}`)).status).toBe(404);
    expect((await call(admin, `crawl/${started.body.id}`, "DELETE")).status).toBe(200);
    // A crawl a request can finish is answered at once, as before.
    const sync = await call(admin, "crawl", "POST", { url: `${site.origin}/`, max_pages: 2, max_depth: 1 });
    expect(sync.status).toBe(200);
    expect(sync.body.counts.pages).toBe(2);
  });
});
