/**
 * Results people can read, against the fake provider server and a small site on the loopback address the
 * e2e server may fetch: a research report whose sources read at a glance (title, domain, date, one badge per
 * provider with its best rank, every listing behind a disclosure), an answer whose Kagi-style 【n】 markers
 * are superscript links that open the pages they cite, and the Connect page's spend this month per token.
 */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "@playwright/test";
import { CLIENT_SITE_ADDRESS } from "./support/client-site";
import { screenshot, settled } from "./support/dashboard";
import { BASE_URL } from "./support/e2e-server";
import { setFakeScenario } from "./support/fake-providers";
import { ownerPage, type SeededUser, seedUser } from "./support/sessions";
import { expect, test } from "./support/test";

test.describe.configure({ mode: "serial" });

const PAGES: Record<string, { title: string; text: string }> = {
  "/lighthouses/history": {
    title: "A short history of lighthouses",
    text: "The first lighthouses were fires lit on hills so that ships could find the harbour at night.",
  },
  "/lighthouses/lenses": {
    title: "How lighthouse lenses work",
    text: "A Fresnel lens bends the lamp's light into a narrow beam that sailors see from far away.",
  },
};

let site: http.Server;
let origin = "";
let owner: SeededUser;

const pageUrl = (path: string) => `${origin}${path}`;
/** Both pages as a search lists them; the first with a publication date. */
const listings = () =>
  Object.entries(PAGES).map(([path, { title, text }], i) => ({
    title,
    url: pageUrl(path),
    snippet: text,
    ...(i === 0 && { publishedAt: "2026-03-04" }),
  }));

test.beforeAll(async () => {
  site = http.createServer((req, res) => {
    const page = PAGES[req.url ?? ""];
    if (!page) return void res.writeHead(404).end("not found");
    const body = `<p>${page.text} ${page.text}</p><p>${page.text}</p>`;
    res
      .writeHead(200, { "content-type": "text/html; charset=utf-8" })
      .end(
        `<!DOCTYPE html><html><head><title>${page.title}</title></head><body><article><h1>${page.title}</h1>${body}</article></body></html>`,
      );
  });
  site.listen(0, CLIENT_SITE_ADDRESS);
  await once(site, "listening");
  origin = `http://${CLIENT_SITE_ADDRESS}:${(site.address() as AddressInfo).port}`;
  owner = await seedUser("reader@results.e2e.test", "Rosa Reader");
});
test.afterAll(async () => {
  for (const wire of ["serper", "brave", "kagi"]) await setFakeScenario(wire, null);
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

const signedIn = (browser: Browser): Promise<Page> => ownerPage(browser, owner);

/** Saves the workspace's own key for the provider shown as `testId` on the Keys page. */
async function addKey(page: Page, testId: string, key: string) {
  await page.goto("/dashboard/keys");
  const row = page.getByTestId(testId);
  await row.getByRole("button", { name: /^Add .+ key$/ }).click();
  await page.getByLabel("API key", { exact: true }).fill(key);
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(row).toContainText(`····${key.slice(-4)}`);
}

test("a research report's sources: title, domain, date and one badge per provider, every listing on demand", async ({
  browser,
}) => {
  const page = await signedIn(browser);
  await addKey(page, "provider-serper", "serper-results-key-0005");
  await addKey(page, "provider-brave", "brave-results-key-0006");
  await setFakeScenario("serper", { results: listings() });
  await setFakeScenario("brave", { results: [...listings()].reverse() });

  await page.goto("/dashboard/playground");
  await settled(page);
  await page.getByRole("tab", { name: "Research" }).click();
  await page.getByLabel("Question", { exact: true }).fill("How do lighthouses work?");
  await page.getByLabel("Searches", { exact: true }).fill("2");
  await page.getByLabel("Pages to read", { exact: true }).fill("2");
  await page.getByLabel("Serper", { exact: true }).check();
  await page.getByLabel("Brave Search", { exact: true }).check();
  await page.getByRole("button", { name: "Start" }).click();
  const job = page.getByTestId("research-job");
  await expect(job.getByTestId("research-status")).toHaveText("done", { timeout: 45_000 });

  const sources = job.getByTestId("research-source");
  await expect(sources).toHaveCount(2);
  const history = sources.filter({ hasText: PAGES["/lighthouses/history"]?.title ?? "" });
  await expect(history.getByRole("link", { name: "A short history of lighthouses" })).toHaveAttribute(
    "href",
    pageUrl("/lighthouses/history"),
  );
  await expect(history.getByTestId("source-domain")).toHaveText(CLIENT_SITE_ADDRESS);
  await expect(history.locator("time")).toHaveText("Mar 4, 2026");
  await expect(history.locator("time")).toHaveAttribute("datetime", "2026-03-04T00:00:00.000Z");
  // Found by two providers for two searches: two badges, not four chips; the best rank on hover.
  const badges = history.getByTestId("provider-badge");
  await expect(badges).toHaveCount(2);
  await expect(badges.filter({ hasText: "serper" })).toHaveAttribute(
    "title",
    "serper: best rank #1 (2 listings)",
  );
  await expect(badges.filter({ hasText: "brave" })).toHaveAttribute(
    "title",
    "brave: best rank #2 (2 listings)",
  );
  await expect(badges.filter({ hasText: "serper" })).toContainText("best rank #1"); // for screen readers
  await expect(job.getByTestId("research-found-by")).toHaveCount(0);

  // Every (provider, rank, search) behind a disclosure a keyboard opens.
  const detail = history.getByTestId("provenance");
  await expect(detail.getByTestId("listing").first()).toBeHidden();
  await detail.getByText("4 listings").focus();
  await page.keyboard.press("Enter");
  const rows = detail.getByTestId("listing");
  await expect(rows).toHaveCount(4);
  await expect(rows.first()).toContainText("serper#1");
  await expect(rows.filter({ hasText: "brave" }).first()).toContainText("#2");
  await expect(rows.first()).toContainText("How do lighthouses work?");

  // The report's citations: superscript links titled with the page they cite.
  const citation = job.getByTestId("research-report").locator("sup a").first();
  await expect(citation).toHaveAttribute("href", new RegExp(`^${origin}/lighthouses/`));
  await expect(citation).toHaveAttribute("title", /lighthouse/i);
  await expect(citation).toHaveText(/^\d$/);
  await screenshot(page, "results-research-sources");
});

test("an answer's citation markers, Kagi's 【n】 included, are superscript links to the pages they cite", async ({
  browser,
}) => {
  const page = await signedIn(browser);
  await addKey(page, "provider-kagi", "kagi-results-key-0007");
  const [history, lenses] = listings();
  // Kagi serves FastGPT beside its search (one base URL): the search wire's scenario carries the answer.
  await setFakeScenario("kagi", {
    payload: {
      // Written as live Kagi answers have them, 【n】 (the fake serves the text verbatim).
      answer: "Lighthouses began as hilltop fires 【1】. Their lenses bend light into a beam 【2】.",
      sources: [history, lenses],
    },
  });

  await page.goto("/dashboard/playground");
  await settled(page);
  await page.getByRole("tab", { name: "Answer" }).click();
  await page.getByLabel("Question", { exact: true }).fill("How do lighthouses work?");
  await page.getByLabel("Kagi", { exact: true }).check();
  await page.getByRole("button", { name: "Run" }).click();

  const answer = page.getByTestId("answer");
  await expect(answer).toContainText("Lighthouses began as hilltop fires");
  await expect(answer).not.toContainText("【");
  const first = answer.getByRole("link", { name: "Source 1: A short history of lighthouses" });
  await expect(first).toHaveText("1");
  await expect(first).toHaveAttribute("title", "A short history of lighthouses");
  await expect(first).toHaveAttribute("href", pageUrl("/lighthouses/history"));
  await expect(answer.locator("sup a")).toHaveCount(2);
  await screenshot(page, "results-answer");

  const [opened] = await Promise.all([
    page.waitForEvent("popup"),
    answer.getByRole("link", { name: "Source 2: How lighthouse lenses work" }).click(),
  ]);
  await expect(opened).toHaveURL(pageUrl("/lighthouses/lenses"));
  await expect(opened.getByRole("heading", { level: 1 })).toHaveText("How lighthouse lenses work");
  await opened.close();
});

test("the Connect page shows each token's spend and calls this month", async ({ browser }) => {
  const page = await signedIn(browser);
  await setFakeScenario("serper", { results: listings() });
  await page.goto("/dashboard/connect");
  const create = async (name: string) => {
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Create token" }).click();
    const dialog = page.getByRole("dialog", { name: `Token “${name}” created` });
    const token = (await dialog.getByTestId("new-token").locator("code").textContent()) ?? "";
    await dialog.getByRole("button", { name: "Close" }).click();
    return token;
  };
  const busy = await create("busy-agent");
  await create("idle-agent");

  // Two searches with the workspace's Serper key, $0.001 each, past the cache.
  for (const query of ["lighthouse history", "lighthouse lenses"]) {
    const response = await fetch(`${BASE_URL}/api/v1/search`, {
      method: "POST",
      headers: { authorization: `Bearer ${busy}`, "content-type": "application/json" },
      body: JSON.stringify({ query, providers: ["serper"], no_cache: true }),
    });
    expect(response.status).toBe(200);
  }

  await expect(async () => {
    await page.reload();
    const spend = page
      .getByTestId("token-row")
      .filter({ hasText: "busy-agent" })
      .getByTestId("connection-spend");
    await expect(spend).toHaveText(/^\$0\.0020\s*2 calls$/, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole("columnheader", { name: "This month" }).first()).toBeVisible();
  await expect(
    page.getByTestId("token-row").filter({ hasText: "idle-agent" }).getByTestId("connection-spend"),
  ).toHaveText(/^\$0\.00\s*0 calls$/);
  await screenshot(page, "connect-spend");
});
