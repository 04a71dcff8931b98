/**
 * The playground's Crawl tab and the fetch tab's paging against the fake crawl site (tests/fakes/crawl-site.ts),
 * served on the loopback address the e2e server allowlists: a site map with titles and depths, the page
 * robots.txt forbids listed as skipped, redirects into private addresses as errors, why the crawl stopped and
 * its trace; pages with their Markdown folded away; a long page read window by window, and several URLs at once.
 */
import type { Browser, Page } from "@playwright/test";
import { type CrawlSite, startCrawlSite } from "@/tests/fakes/crawl-site";
import { CLIENT_SITE_ADDRESS } from "./support/client-site";
import { screenshot, settled } from "./support/dashboard";
import { type SeededUser, seedUser, signInAs } from "./support/sessions";
import { expect, test } from "./support/test";

test.describe.configure({ mode: "serial" });

let site: CrawlSite;
let owner: SeededUser;

test.beforeAll(async () => {
  site = await startCrawlSite(CLIENT_SITE_ADDRESS);
  owner = await seedUser("crawler@playground.e2e.test", "Cora Crawler");
});
test.afterAll(async () => {
  await site?.close();
});

async function playground(browser: Browser, tab: "Crawl" | "Fetch"): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await signInAs(context, owner, owner.tenantId, "owner");
  const page = await context.newPage();
  await page.goto("/dashboard/playground");
  await settled(page);
  await page.getByRole("tab", { name: tab }).click();
  return page;
}

test("the Crawl tab maps a site: URLs with titles and depths, what it skipped, why it stopped, the trace", async ({
  browser,
}) => {
  const page = await playground(browser, "Crawl");
  await page.getByLabel("Start URL", { exact: true }).fill(`${site.origin}/`);
  await page.getByLabel("Mode", { exact: true }).click();
  await page.getByRole("option", { name: "Map (URLs and titles)" }).click();
  await page.getByLabel("Depth", { exact: true }).fill("1");
  await page.getByRole("button", { name: "Run" }).click();

  await expect(page.getByText("Providers · done")).toBeVisible();
  await expect(page.getByText(/^\d+ URLs$/)).toBeVisible();
  const rows = page.getByTestId("crawl-url");
  await expect(rows.filter({ hasText: `${site.origin}/section/3` })).toContainText("Section 3");
  await expect(
    rows
      .filter({ hasText: `${site.origin}/section/3` })
      .getByRole("cell")
      .last(),
  ).toHaveText("1");
  await expect(rows.filter({ hasText: "Home" }).getByRole("cell").last()).toHaveText("0");
  // The sitemap's page linked from nowhere; no article, two hops away.
  await expect(rows.filter({ hasText: "Orphan" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "Article" })).toHaveCount(0);
  await expect(page.getByTestId("crawl-skipped").filter({ hasText: "/private/secret" })).toContainText(
    /robots/,
  );
  await expect(page.getByTestId("crawl-error").filter({ hasText: "/go/metadata" })).toContainText(
    "169.254.169.254",
  );
  await expect(page.getByTestId("crawl-stopped")).toContainText("stopped at the depth limit");
  await expect(page.getByTestId("crawl-stopped")).toContainText("1 link to other sites not followed.");
  await screenshot(page, "playground-crawl-map");

  await page.getByRole("link", { name: "Open trace" }).click();
  await expect(page).toHaveURL(/\/dashboard\/traces\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("crawl");
  await expect(page.getByTestId("span-row").first()).toContainText("direct");
});

test("the Crawl tab reads pages: each with its characters and folded Markdown; a bad path pattern is flagged", async ({
  browser,
}) => {
  const page = await playground(browser, "Crawl");
  await page.getByLabel("Start URL", { exact: true }).fill(`${site.origin}/section/1`);
  await page.getByLabel("Depth", { exact: true }).fill("1");
  await page.getByLabel("Only these paths", { exact: true }).fill("section/1*");
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByText("a path pattern starts with / or *")).toBeVisible();

  await page.getByLabel("Only these paths", { exact: true }).fill("/section/1*");
  await page.getByLabel("Characters per page", { exact: true }).fill("200");
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByText("6 pages", { exact: true })).toBeVisible();
  const pages = page.getByTestId("crawl-page");
  await expect(pages.getByRole("heading", { level: 3 })).toHaveText([
    "Section 1",
    ...[1, 2, 3, 4, 5].map((a) => `Article 1.${a}`),
  ]);
  const article = pages.filter({ hasText: "Article 1.2" });
  await expect(article).toContainText("depth 1");
  await expect(article.getByText("truncated", { exact: true })).toBeVisible();
  const content = article.getByText(/This article explains one part/);
  await expect(content).toBeHidden();
  await article.getByText("Content", { exact: true }).click();
  await expect(content).toBeVisible();
  await screenshot(page, "playground-crawl-pages");
  // The home page link is outside the paths asked for.
  await expect(page.getByTestId("crawl-skipped").first()).toContainText("excluded by include_paths");
  await expect(page.getByTestId("crawl-stopped")).toContainText("It read every page it found");
});

test("the Fetch tab reads a long page window by window from the cache, and several URLs in one call", async ({
  browser,
}) => {
  const page = await playground(browser, "Fetch");
  await page.getByLabel("URL", { exact: true }).fill(`${site.origin}/long`);
  await page.getByLabel("Characters", { exact: true }).fill("1000");
  await page.getByRole("button", { name: "Run" }).click();
  const range = page.getByText(/^characters \d+–\d+/);
  await expect(range).toHaveText(/^characters 0–\d+; next offset \d+$/);
  const next = Number((await range.textContent())?.match(/next offset (\d+)/)?.[1]);
  expect(next).toBeGreaterThan(0);
  await expect(page.getByText("from cache")).toHaveCount(0);

  await page.getByRole("button", { name: "Next page" }).click();
  await expect(page.getByText(new RegExp(`^characters ${next}–\\d+; next offset \\d+$`))).toBeVisible();
  await expect(page.getByText("from cache")).toBeVisible();
  await screenshot(page, "playground-fetch-next-page");

  await page.getByLabel("URL", { exact: true }).fill(`${site.origin}/section/2`);
  await page.getByLabel("More URLs", { exact: true }).fill(`${site.origin}/orphan ${site.origin}/missing`);
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByText("3 pages", { exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { level: 3 })).toHaveText([
    "Section 2",
    "Orphan",
    `${site.origin}/missing`,
  ]);
});
