/**
 * Wording and layout as a newcomer reads them (#16), in a fresh workspace of its own: provider keys flag
 * only what a tool needs; one playground run states one duration and a one-provider result no "merged"
 * snippet; a used-up budget says its hard limit is reached; chart axes step by round values; at 375 px no
 * copy button covers the text it copies; the sign-in button looks like a button. Every page's wording
 * ("1 providers", "(s)", backticks) and fit at 375 px are checked in the sweep of accessibility.spec.ts.
 */
import type { Browser, Page } from "@playwright/test";
import { settled } from "./support/dashboard";
import { type SeededUser, seedUser, signInAs } from "./support/sessions";
import { expect, test } from "./support/test";

test.describe.configure({ mode: "serial" });

let owner: SeededUser;

async function ownerPage(browser: Browser, width = 1280): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await signInAs(context, owner, owner.tenantId, "owner");
  return context.newPage();
}

/** Picks `option` in the Radix select labelled `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test.beforeAll(async () => {
  owner = await seedUser("layout@wording.e2e.test", "Lee Layout");
});

test("provider keys flag only what a tool needs: optional providers without a key are grey", async ({
  browser,
}) => {
  const page = await ownerPage(browser);
  await page.goto("/dashboard/keys");
  await settled(page);
  const rows = page.locator('[data-testid^="provider-"]');
  const noKey = rows.locator('[data-tone="outline"]', { hasText: /^no key$/ });
  expect(await noKey.count()).toBeGreaterThanOrEqual(20);
  await expect(rows.locator('[data-tone="warning"]')).toHaveCount(0);
  await expect(rows.getByText("missing", { exact: true })).toHaveCount(0);
  // No answer, extract or image provider works without a key here (no operator model, no SearXNG): those,
  // and only those, are flagged.
  const needed = page.getByTestId("needed-keys");
  await expect(needed.getByRole("listitem")).toHaveCount(3);
  await expect(needed).toContainText("Answer has no provider yet: add a key for one of");
  await expect(needed).toContainText("Extract has no provider yet");
  await expect(needed).toContainText("Images has no provider yet");
});

test("a one-provider run states one duration, no merged snippet, and a used-up budget says its hard limit is reached", async ({
  browser,
}) => {
  const page = await ownerPage(browser);
  await page.goto("/dashboard/keys?kind=search");
  const brave = page.getByTestId("provider-brave");
  await brave.getByRole("button", { name: "Add Brave Search key" }).click();
  await page.getByLabel("API key", { exact: true }).fill("brave-wording-key-0003");
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(brave).toContainText("····0003");

  await page.goto("/dashboard/budgets");
  await choose(page, "Provider", "Brave Search");
  // Brave's free tier is a monthly credit in dollars, which the form starts from: this budget counts requests.
  await choose(page, "Counts", "Requests");
  await choose(page, "Period", "Per UTC day");
  await page.getByLabel("Hard limit").fill("1");
  await page.getByLabel("Soft limit (optional)").fill("");
  await page.getByRole("button", { name: "Save budget" }).click();
  const daily = page.getByTestId("budget-row").filter({ hasText: "brave · requests per day" });
  await expect(daily).toContainText("0 of 1");

  await page.goto("/dashboard/playground");
  await page.getByLabel("Query", { exact: true }).fill("wording check");
  await page.getByLabel("Brave Search", { exact: true }).check();
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByText("Providers · done")).toBeVisible();
  const summary = page.getByText(/^\d+ results?$/).locator("..");
  await expect(summary).toContainText(/in \d+(\.\d+)? (ms|s)/);
  // The summary's is the run's one duration: the providers card gives none once the run is done.
  await expect(page.getByRole("heading", { name: "Providers · done" })).not.toContainText(/\d/);
  const results = page.getByTestId("search-result");
  await expect(results.first()).toContainText("snippet from brave");
  await expect(page.getByText(/snippet merged/)).toHaveCount(0);

  await page.goto("/dashboard/budgets");
  await expect(daily).toContainText("hard limit reached");
  await expect(daily).not.toContainText("soft limit");

  await page.goto("/dashboard");
  await settled(page);
  await expect(page.getByText("Searches today")).toHaveCount(0);
  await expect(page.getByText("Tool calls today")).toBeVisible();
  await expect(page.getByText("1 web_search", { exact: true })).toBeVisible();
  await expect(page.getByText("1 provider request (what budgets count)")).toBeVisible();
});

test("chart axes step by round values and date ticks are a week apart", async ({ browser }) => {
  const page = await ownerPage(browser);
  await page.goto("/dashboard");
  await settled(page);
  const chart = page.getByRole("figure", { name: "Tool calls per day, last 30 days" });
  // Value ticks stand right-aligned at the left edge, date ticks centred under their bars.
  const ticks = chart.locator('.recharts-cartesian-axis-tick-value[text-anchor="end"]');
  await expect(ticks.first()).toBeVisible();
  const values = (await ticks.allTextContents()).map(Number);
  expect(values[0]).toBe(0);
  const step = (values[1] ?? 0) - (values[0] ?? 0);
  expect(Number.isInteger(step) && step > 0).toBe(true);
  values.forEach((value, index) => {
    expect(value).toBe(index * step);
  });
  const days = await chart
    .locator('.recharts-cartesian-axis-tick-value[text-anchor="middle"]')
    .allTextContents();
  expect(days.length).toBeGreaterThanOrEqual(4);
  // Dates without a year, read in a leap year: a week across New Year comes out as a week too.
  const DAY = 86_400_000;
  const dates = days.map((day) => Date.parse(`${day} 2000`));
  for (let i = 1; i < dates.length; i++) {
    expect(((dates[i] ?? 0) - (dates[i - 1] ?? 0) + 366 * DAY) % (366 * DAY)).toBe(7 * DAY);
  }
});

test("at 375 px the Connect page's copy buttons sit beside the text they copy", async ({ browser }) => {
  const page = await ownerPage(browser, 375);
  await page.goto("/dashboard/connect");
  await settled(page);
  const blocks = page.locator("pre:has(> code)");
  expect(await blocks.count()).toBeGreaterThan(0);
  for (const block of await blocks.all()) {
    if (!(await block.isVisible())) continue;
    const button = block.locator("xpath=..").getByRole("button", { name: /^Copy/ });
    const [code, copy] = [await block.boundingBox(), await button.boundingBox()];
    expect(code && copy, "a code block with its copy button").toBeTruthy();
    if (!code || !copy) continue;
    // Beside, not over: the button starts where the text's box ends.
    expect(copy.x).toBeGreaterThanOrEqual(code.x + code.width);
  }
});

test("the sign-in button looks like a button, not a text field", async ({ browser }) => {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/signin");
  const button = page.getByRole("button", { name: "Development sign-in" });
  const look = await button.evaluate((element) => {
    const style = getComputedStyle(element);
    return { background: style.backgroundColor, page: getComputedStyle(document.body).backgroundColor };
  });
  expect(look.background).not.toBe("rgba(0, 0, 0, 0)");
  expect(look.background).not.toBe(look.page);
});
