/**
 * The Webhooks page: an owner adds an endpoint (an HTTPS receiver on the loopback address the e2e server
 * allowlists, with the certificate it trusts), copies the signing secret shown once, sends a test event, and
 * sees its delivery in the log; the receiver verifies the Standard Webhooks signature with that secret.
 */
import { once } from "node:events";
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { verifies } from "@/tests/support/webhook-receiver";
import { CLIENT_SITE_ADDRESS, clientSiteFiles } from "./support/client-site";
import { screenshot, settled } from "./support/dashboard";
import { type SeededUser, seedUser, signInAs } from "./support/sessions";
import { expect, test } from "./support/test";

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
}

const received: Received[] = [];
const receiver = createServer(clientSiteFiles().tls(), async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  received.push({
    id: String(request.headers["webhook-id"]),
    timestamp: String(request.headers["webhook-timestamp"]),
    signature: String(request.headers["webhook-signature"]),
    body: Buffer.concat(chunks).toString("utf8"),
  });
  response.writeHead(204).end();
});
let owner: SeededUser;

test.beforeAll(async () => {
  receiver.listen(0, CLIENT_SITE_ADDRESS);
  await once(receiver, "listening");
  owner = await seedUser("hooks@webhooks.e2e.test", "Hana Hooks");
});
test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

test("an owner adds a webhook, sends a test event and sees its delivery", async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await signInAs(context, owner, owner.tenantId, "owner");
  const page = await context.newPage();
  await page.goto("/dashboard/webhooks");
  await settled(page);
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

  const url = `https://${CLIENT_SITE_ADDRESS}:${(receiver.address() as AddressInfo).port}/hooks`;
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add webhook" }).click();
  const secretBlock = page.getByTestId("new-webhook-secret");
  await expect(secretBlock).toContainText("whsec_");
  const secret = (await secretBlock.locator("code").first().textContent())?.trim() ?? "";
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);

  await page.getByRole("button", { name: `Send a test event to ${url}` }).click();
  await expect(page.getByText("Test event sent; its delivery is listed below.")).toBeVisible();
  const delivery = page.getByTestId("delivery").first();
  await expect(delivery).toContainText("webhook.test");
  await expect(delivery).toContainText("succeeded");
  await expect(delivery).toContainText("HTTP 204");
  await screenshot(page, "webhooks");

  expect(received).toHaveLength(1);
  const [sent] = received;
  expect(sent && verifies(secret, sent.id, sent.timestamp, sent.body, sent.signature)).toBe(true);
  expect(JSON.parse(sent?.body ?? "{}")).toMatchObject({ type: "webhook.test" });
  // The secret is shown once: a reload lists the webhook without it.
  await page.reload();
  await settled(page);
  await expect(page.getByText(url)).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  await context.close();
});
