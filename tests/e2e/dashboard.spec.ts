/**
 * The signed-in dashboard end to end, as a newcomer meets it: sign in, create a token and see the MCP URL,
 * add and test provider keys, set a budget, run a playground search over the fake providers and open its
 * trace, revoke the token; then every page in light, dark and phone layouts without console errors.
 * Screenshots land in test-results/screenshots.
 */
import type { Page } from "@playwright/test";
import { screenshot, signInAsDeveloper } from "./support/dashboard";
import { BASE_URL } from "./support/e2e-server";
import { E2E_TAVILY_KEY, fakeRequests } from "./support/fake-providers";
import { expect, test } from "./support/test";

test.describe.configure({ mode: "serial" });

let token = "";

const usage = (bearer: string) =>
  fetch(`${BASE_URL}/api/v1/usage`, { headers: { authorization: `Bearer ${bearer}` } });

/** Picks `option` in the Radix select labelled `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

test.beforeEach(async ({ page }) => {
  await signInAsDeveloper(page);
});

test("a newcomer sees the first-run checklist, creates a token once and gets the MCP URL", async ({
  page,
}) => {
  await expect(page.getByRole("heading", { name: "Get started" })).toBeVisible();
  await screenshot(page, "overview-first-run");
  await page.getByRole("link", { name: "Create a token" }).click();
  await expect(page).toHaveURL(/\/dashboard\/connect$/);
  await expect(page.getByTestId("mcp-url")).toContainText(`${BASE_URL}/api/mcp`);

  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("must not be empty")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill("e2e-agent");
  await page.getByRole("button", { name: "Create token" }).click();
  const dialog = page.getByRole("dialog", { name: "Token “e2e-agent” created" });
  await expect(dialog).toBeVisible();
  token = (await dialog.getByTestId("new-token").locator("code").textContent()) ?? "";
  expect(token).toMatch(/^smx_[0-9A-Za-z]{38}$/);
  await expect(
    dialog.getByText(`claude mcp add --transport http searchmux ${BASE_URL}/api/mcp`),
  ).toContainText(token);
  await screenshot(page, "connect-new-token");
  await dialog.getByRole("button", { name: "Close" }).click();

  const row = page.getByTestId("token-row").filter({ hasText: "e2e-agent" });
  await expect(row).toContainText("active");
  await expect(row).toContainText(`${token.slice(0, 8)}…${token.slice(-4)}`);
  await expect(page.getByText(token)).toHaveCount(0); // never shown again
  expect((await usage(token)).status).toBe(200);
  await screenshot(page, "connect");
});

test("provider keys are added, tested (refused, then accepted) and shown by their last 4", async ({
  page,
}) => {
  await page.getByRole("link", { name: "Provider keys" }).first().click();
  await page.getByRole("link", { name: "Search", exact: true }).click();
  const tavily = page.getByTestId("provider-tavily");
  await expect(tavily).toContainText("no key");
  await expect(tavily.getByRole("link", { name: /Sign up/ })).toHaveAttribute(
    "href",
    "https://app.tavily.com/",
  );

  await tavily.getByRole("button", { name: "Add Tavily key" }).click();
  await page.getByLabel("API key", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(page.getByText("must be at least 8 characters long")).toBeVisible();
  await page.getByLabel("API key", { exact: true }).fill("tvly-wrong-key-9999");
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(tavily).toContainText("your key");
  await expect(tavily).toContainText("····9999");
  await expect(tavily).toContainText("Test sends one real request to Tavily; it counts against its budget.");
  await tavily.getByRole("button", { name: "Test Tavily key" }).click();
  await expect(tavily).toContainText("The provider refused the key. Nothing was charged to its budget.");
  await expect(tavily).toContainText("refused");

  await tavily.getByRole("button", { name: "Replace Tavily key" }).click();
  await page.getByLabel("API key", { exact: true }).fill(E2E_TAVILY_KEY);
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(tavily).toContainText(`····${E2E_TAVILY_KEY.slice(-4)}`);
  await tavily.getByRole("button", { name: "Test Tavily key" }).click();
  await expect(tavily).toContainText(
    "The provider accepted the key. The test used 1 request ($0.0080) of its budget.",
  );
  await expect(tavily).toContainText("works");

  const brave = page.getByTestId("provider-brave");
  await brave.getByRole("button", { name: "Add Brave Search key" }).click();
  await page.getByLabel("API key", { exact: true }).fill("brave-e2e-key-0002");
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(brave).toContainText("····0002");
  await screenshot(page, "keys");
});

test("a budget is set and listed with what is left; a soft limit above the limit is refused", async ({
  page,
}) => {
  await page.getByRole("link", { name: "Budgets" }).click();
  // The first key for a provider sets its free tier as a budget: Tavily's 1,000 credits a month, in dollars.
  await expect(page.getByTestId("budget-row").filter({ hasText: "tavily · USD per month" })).toContainText(
    "of $8.00",
  );
  // The price table, with each price's source.
  await expect(page.getByTestId("price-exa")).toContainText("$0.001 each beyond 10");

  await choose(page, "Provider", "Serper");
  await expect(page.getByLabel("Hard limit")).toHaveValue("2500");
  await expect(page.getByLabel("Period")).toHaveText("Lifetime");

  await choose(page, "Provider", "All providers");
  await choose(page, "Counts", "US dollars");
  await choose(page, "Period", "Per UTC day");
  await page.getByLabel("Hard limit").fill("5");
  await page.getByLabel("Soft limit (optional)").fill("9");
  await page.getByRole("button", { name: "Save budget" }).click();
  await expect(page.getByText("soft limit must not exceed the limit")).toBeVisible();

  await page.getByLabel("Soft limit (optional)").fill("4");
  await page.getByRole("button", { name: "Save budget" }).click();
  const row = page.getByTestId("budget-row").filter({ hasText: "All providers · USD per day" });
  const cells = row.getByRole("cell");
  await expect(cells.nth(1)).toContainText(/^\$[\d.]+ of \$5\.00$/); // the key tests were charged today
  await expect(cells.nth(3)).toHaveText("$4.00");
  await expect(row.getByRole("progressbar")).toBeVisible();
  await screenshot(page, "budgets");
});

test("a playground search shows providers finishing, fused results with badges, and its trace", async ({
  page,
}) => {
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "Playground" }).click();
  const tavilyCalls = (await fakeRequests("tavily")).length;
  await page.getByLabel("Query", { exact: true }).fill("rust async runtimes");
  await page.getByLabel("Tavily", { exact: true }).check();
  await page.getByLabel("Brave Search", { exact: true }).check();
  // Beside Run, what the search would ask and the most it could cost (Tavily $0.008, Brave $0.005).
  await expect(page.getByTestId("run-estimate")).toHaveText(
    /^Up to \$0\.013 · asks (tavily, brave|brave, tavily)$/,
  );
  expect(await fakeRequests("tavily")).toHaveLength(tavilyCalls); // nothing was called to work it out
  await page.getByRole("button", { name: "Run" }).click();

  await expect(page.getByText(/Providers · running/)).toBeVisible();
  await expect(page.getByText("Providers · done")).toBeVisible();
  const spans = page.getByTestId("span-row");
  await expect(spans).toHaveCount(2);
  await expect(spans.filter({ hasText: "tavily" })).toContainText("ok");
  await expect(spans.filter({ hasText: "brave" })).toContainText("ok");

  const first = page.getByTestId("search-result").first();
  await expect(first).toContainText("Result 1");
  // One badge per provider, its rank on hover and for screen readers.
  await expect(first.getByTestId("provider-badge")).toHaveText([
    "brave, best rank #1",
    "tavily, best rank #1",
  ]);
  await expect(first.getByTestId("provider-badge").first()).toHaveAttribute("title", "brave: best rank #1");
  await expect(first).toContainText("snippet merged from providers");
  await screenshot(page, "playground");

  await page.getByRole("link", { name: "Open trace" }).click();
  await expect(page).toHaveURL(/\/dashboard\/traces\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("web_search");
  await expect(page.getByTestId("span-row")).toHaveCount(2);
  await expect(page.getByText('"query": "rust async runtimes"')).toBeVisible();
  await expect(page.getByText("https://example.com/result-1")).toBeVisible();
  await screenshot(page, "trace");

  await page.getByRole("link", { name: "All traces" }).click();
  await choose(page, "Surface", "Playground");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/surface=playground/);
  await expect(page.getByTestId("trace-row").first()).toContainText("web_search");
  await screenshot(page, "traces");
});

test("a revoked token is refused by the API at once", async ({ page }) => {
  expect(token, "the token test ran first").not.toBe("");
  await page.goto("/dashboard/connect");
  await page.getByRole("button", { name: "Revoke e2e-agent" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Revoke “e2e-agent”?" });
  await confirm.getByRole("button", { name: "Revoke token" }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId("token-row").filter({ hasText: "e2e-agent" })).toContainText("revoked");
  const refused = await usage(token);
  expect(refused.status).toBe(401);
  expect(await refused.json()).toMatchObject({ error: { code: "unauthorized" } });
});

test("the audit log shows the token's creation and revocation, by whom, and filters by area", async ({
  page,
}) => {
  expect(token, "the token test ran first").not.toBe("");
  await page.goto("/dashboard/audit");
  const rows = page.getByTestId("audit-row");
  await expect(rows.filter({ hasText: "token.revoke" }).first()).toBeVisible();
  await expect(rows.filter({ hasText: "token.create" }).first()).toContainText("dashboard");
  await page.getByLabel("Area").click();
  await page.getByRole("option", { name: "Budgets" }).click();
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=budget\./);
  await expect(rows.filter({ hasText: "token." })).toHaveCount(0);
  await screenshot(page, "audit-budgets");
});

test("lenses: the built-in ones are listed, a workspace lens is validated, saved and deleted", async ({
  page,
}) => {
  await page.goto("/dashboard/settings");
  const lenses = page.getByRole("list", { name: "Lenses" });
  await expect(lenses).toContainText("academic");
  await page.getByLabel("Name", { exact: true }).fill("e2e-wiki");
  await page.getByLabel("Domains", { exact: true }).fill("not a domain!");
  await page.getByRole("button", { name: "Save lens" }).click();
  await expect(page.getByText(/not a domain name/)).toBeVisible();
  await page.getByLabel("Domains", { exact: true }).fill("example.com, wiki.example.org");
  await page.getByRole("button", { name: "Save lens" }).click();
  await expect(page.getByText('Lens "e2e-wiki" saved with 2 domains.')).toBeVisible();
  await expect(lenses.getByRole("listitem").filter({ hasText: "e2e-wiki" })).toContainText("yours");
  await screenshot(page, "settings-lenses");

  await page.getByRole("button", { name: "Delete lens e2e-wiki" }).click();
  const confirm = page.getByRole("alertdialog", { name: 'Delete the lens "e2e-wiki"?' });
  await confirm.getByRole("button", { name: "Delete lens" }).click();
  await expect(confirm).toBeHidden();
  await expect(lenses).not.toContainText("e2e-wiki");
});

test("the default search mode is chosen on Settings; Budgets shows what each provider adds", async ({
  page,
}) => {
  await page.goto("/dashboard/settings");
  await expect(page.getByLabel("Default search mode")).toContainText("Auto");
  await choose(page, "Default search mode", "Fan out (every provider, every time)");
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText(/searches run in fanout mode/)).toBeVisible();

  // A search that names neither a mode nor providers runs in the workspace's mode: every provider,
  // which the learner measures.
  await page.goto("/dashboard/playground");
  await page.getByLabel("Query", { exact: true }).fill("what each provider adds");
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByText("Providers · done")).toBeVisible();
  await expect(page.getByTestId("span-row").filter({ hasText: "tavily" })).toContainText("ok");

  await page.goto("/dashboard/budgets");
  const contributions = page.getByTestId("search-contributions");
  const tavily = contributions.getByTestId("search-contribution-row").filter({ hasText: "tavily" });
  await expect(tavily).toContainText("measuring");
  await expect(
    contributions.getByTestId("search-contribution-row").filter({ hasText: "duckduckgo" }),
  ).toContainText("always asked (free)");
  await expect(tavily.getByRole("cell").nth(1)).toHaveText("1");
  await screenshot(page, "budgets-contributions");
});

const PAGES = [
  ["overview", "/dashboard"],
  ["playground-empty", "/dashboard/playground"],
  ["connect", "/dashboard/connect"],
  ["keys", "/dashboard/keys"],
  ["budgets", "/dashboard/budgets"],
  ["traces", "/dashboard/traces"],
  ["audit", "/dashboard/audit"],
  ["team", "/dashboard/team"],
  ["settings", "/dashboard/settings"],
  ["admin", "/dashboard/admin"],
] as const;

// Light mode at a laptop's and a phone's size is accessibility.spec.ts's sweep of every page.
test("every page renders in dark mode, its heading shown, without console errors", async ({ page }) => {
  test.setTimeout(120_000);
  await page.emulateMedia({ colorScheme: "dark" });
  for (const [name, path] of PAGES) {
    await page.goto(path);
    await expect(page.locator("html")).toHaveClass(/dark/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await screenshot(page, `page-${name}-dark`);
  }
});

test("the dashboard is keyboard reachable, navigation included on a phone", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
  await page.getByRole("button", { name: "Open navigation" }).focus();
  await page.keyboard.press("Enter");
  const drawer = page.getByRole("dialog", { name: "Searchmux" });
  await expect(drawer).toBeVisible();
  await screenshot(page, "navigation-phone");
  await drawer.getByRole("link", { name: "Team" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/dashboard\/team$/);
  await expect(drawer).toBeHidden();
});
