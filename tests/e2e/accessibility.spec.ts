/**
 * Every page at a laptop's size (1440×900) and a phone's (390×844), in a workspace with rows in every
 * table (#32): axe (WCAG 2 A and AA) finds no serious or critical violation, no page scrolls sideways on
 * the phone nor at 375 px (every tab on screen there too), no page says "1 providers" or "answer(s)" or
 * shows a literal backtick (#16), and a full-page screenshot of each lands in
 * test-results/screenshots/pages/. Then the dialogs: each traps focus, closes on Escape and gives focus
 * back to the control that opened it (the token shown once included, whose dialog the form opens, not a
 * trigger).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Browser, Locator, Page, TestInfo } from "@playwright/test";
import { CLIENT_SITE_ADDRESS } from "./support/client-site";
import { settled, signInAsDeveloper } from "./support/dashboard";
import { BASE_URL, seedTenant } from "./support/e2e-server";
import { E2E_TAVILY_KEY } from "./support/fake-providers";
import { type SeededUser, seedUser, signInAs } from "./support/sessions";
import { expect, test } from "./support/test";

const SIZES = [
  { name: "laptop", width: 1440, height: 900 },
  { name: "phone", width: 390, height: 844 },
] as const;
type Size = (typeof SIZES)[number];

/** The owner's pages, by the name their screenshot gets. */
const OWNER_PAGES = [
  ["overview", "/dashboard"],
  ["connect", "/dashboard/connect"],
  ["keys", "/dashboard/keys"],
  ["budgets", "/dashboard/budgets"],
  ["traces", "/dashboard/traces"],
  ["audit", "/dashboard/audit"],
  ["team", "/dashboard/team"],
  ["webhooks", "/dashboard/webhooks"],
  ["settings", "/dashboard/settings"],
  ["api-reference", "/docs/api"],
] as const;

/** Each worker seeds a workspace of its own: a test failing starts a new worker, which seeds again. */
const run = Date.now().toString(36);

let owner: SeededUser;
let inviteSecret = "";
let consentPath = "";

/** Runs axe on the settled page; the serious and critical violations, one line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
          .slice(0, 3)
          .map((node) => node.target.join(" "))
          .join(", ")}`,
    );
}

/** A count of 1 before a plural noun ("1 providers"), or a noun hedged as "answer(s)". */
const MISCOUNTED =
  /(?<![\d.,])1 (providers|answers|results|requests|tokens|workspaces|citations|characters|domains|keys|members|papers|calls|budgets|days)\b|\w\(s\)/;
/** The narrowest phone the layout serves. */
const NARROWEST = 375;

async function expectFits(page: Page, width: number, name: string): Promise<void> {
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect.soft(scrollWidth, `${name} scrolls sideways at ${width} px`).toBeLessThanOrEqual(width);
}

/**
 * At the narrowest width, the page does not scroll sideways and every tab is on screen (the API reference's
 * response tabs are the viewer's own, in a strip that scrolls sideways by design). The phone's size is
 * restored after.
 */
async function expectNarrowestFits(page: Page, size: Size, name: string): Promise<void> {
  await page.setViewportSize({ width: NARROWEST, height: size.height });
  await expectFits(page, NARROWEST, name);
  const tabs = name === "api-reference" ? [] : await page.getByRole("tab").all();
  for (const tab of tabs) {
    const box = await tab.boundingBox();
    expect
      .soft(box && box.x >= 0 && box.x + box.width <= NARROWEST, `${name}: tab "${await tab.textContent()}"`)
      .toBe(true);
  }
  await page.setViewportSize({ width: size.width, height: size.height });
}

/**
 * The page as it is now: axe's verdict, that it fits the size's width (and on the phone, the narrowest
 * width), its wording (read once, at the laptop's size), and a full-page screenshot (a file under
 * test-results/screenshots/pages/ and an attachment of the test).
 */
async function audit(page: Page, size: Size, name: string, testInfo: TestInfo): Promise<void> {
  await settled(page);
  expect.soft(await seriousViolations(page), `${name} at ${size.width} px`).toEqual([]);
  await expectFits(page, size.width, name);
  if (size.name === "phone") await expectNarrowestFits(page, size, name);
  else {
    // biome-ignore lint/performance/useDomNodeTextContent: what is rendered, not the page's scripts
    const text = await page.locator("body").innerText();
    expect.soft(text, name).not.toMatch(MISCOUNTED);
    expect.soft(text, name).not.toContain("`");
  }
  const path = `test-results/screenshots/pages/${size.name}-${name}.png`;
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(`${size.name}-${name}`, { path, contentType: "image/png" });
}

async function visit(page: Page, size: Size, name: string, path: string, testInfo: TestInfo) {
  await page.goto(path);
  await audit(page, size, name, testInfo);
}

/** An OAuth client registered as anyone may (RFC 7591), and the consent page its request opens. */
async function consentPagePath(): Promise<string> {
  const redirectUri = "https://layout-client.example/callback";
  const registered = await fetch(`${BASE_URL}/api/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "Layout check client",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
    }),
  });
  expect(registered.status).toBe(201);
  const { client_id } = (await registered.json()) as { client_id: string };
  const query = new URLSearchParams({
    response_type: "code",
    client_id,
    redirect_uri: redirectUri,
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: "layout",
  });
  return `/api/oauth/authorize?${query}`;
}

/** A search through REST with `token`: a trace for the Traces page (and a cache hit when repeated). */
async function search(token: string, query: string, providers: string[]): Promise<void> {
  const response = await fetch(`${BASE_URL}/api/v1/search`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ query, providers }),
  });
  await response.body?.cancel();
}

test.beforeAll(async ({ browser }) => {
  owner = await seedUser(`owner-${run}@layout.e2e.test`, "Olivia Longname-Owner");
  const member = await seedUser(`member-${run}@layout.e2e.test`, "Max Member");
  const seeded = await seedTenant({
    tenantId: owner.tenantId,
    tokens: [
      { name: "laptop-claude-code-with-a-long-name" },
      { name: "ci-agent", scopes: ["search", "fetch", "mcp"] },
      { name: "old-agent", revoked: true },
    ],
    keys: [{ provider: "tavily", key: E2E_TAVILY_KEY }],
    budgets: [
      { provider: "*", metric: "usd", period: "day", limit: 2 },
      { provider: "tavily", metric: "requests", period: "day", limit: 50 },
    ],
    invitations: [
      { email: member.email, role: "member", userId: member.userId },
      { email: `pending.invitee-${run}@layout.e2e.test`, role: "admin" },
    ],
  });
  inviteSecret = seeded.invitations[`pending.invitee-${run}@layout.e2e.test`] ?? "";
  const token = seeded.tokens["laptop-claude-code-with-a-long-name"] ?? "";
  await search(token, "accessible data tables", ["tavily"]);
  await search(token, "accessible data tables", ["tavily"]);
  await search(token, "keyless providers fail here", ["duckduckgo"]);
  consentPath = await consentPagePath();
  await addWebhook(browser);
});

/** A webhook with a delivery in its log: added and tested in the owner's browser (nothing listens there). */
async function addWebhook(browser: Browser): Promise<void> {
  const context = await browser.newContext();
  await signInAs(context, owner, owner.tenantId, "owner");
  const page = await context.newPage();
  await page.goto("/dashboard/webhooks");
  const url = `https://${CLIENT_SITE_ADDRESS}:9/hooks/searchmux-layout-check`;
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByTestId("new-webhook-secret")).toContainText("whsec_");
  await page.getByRole("button", { name: `Send a test event to ${url}` }).click();
  await expect(page.getByTestId("delivery").first()).toContainText("webhook.test");
  await context.close();
}

for (const size of SIZES) {
  test(`every page at ${size.width}×${size.height}: no serious axe violation, nothing sideways`, async ({
    browser,
  }, testInfo) => {
    test.setTimeout(600_000);
    // One context for the size: signed out first, then the owner, then the operator.
    const context = await browser.newContext({ viewport: { width: size.width, height: size.height } });
    const page = await context.newPage();
    await visit(page, size, "signin", "/signin", testInfo);
    await visit(page, size, "invite", `/invite/${inviteSecret}`, testInfo);

    await signInAs(context, owner, owner.tenantId, "owner");
    for (const [name, path] of OWNER_PAGES) await visit(page, size, name, path, testInfo);

    // Every provider of the latency chart is labelled, not every fifth: a label beside each row of bars (the
    // right-aligned ticks; the values below are centred).
    await page.goto("/dashboard");
    await settled(page);
    const latency = page.getByRole("figure", { name: /^Provider latency/ });
    const providers = await latency.locator("tbody th").allTextContents();
    expect(providers.length).toBeGreaterThanOrEqual(2);
    const labels = await latency
      .locator('.recharts-cartesian-axis-tick-value[text-anchor="end"]')
      .allTextContents();
    expect(labels.toSorted()).toEqual(providers.toSorted());

    await page.goto("/dashboard/traces");
    await page.getByTestId("trace-row").first().getByRole("link").click();
    await expect(page).toHaveURL(/\/dashboard\/traces\/[0-9a-f-]{36}$/);
    await audit(page, size, "trace", testInfo);

    await page.goto("/dashboard/playground");
    await settled(page);
    const tabs = (await page.getByRole("tab").allTextContents()).map((tab) => tab.trim());
    expect(tabs.length).toBeGreaterThan(3);
    for (const tab of tabs) {
      await page.getByRole("tab", { name: tab, exact: true }).click();
      await audit(page, size, `playground-${tab.toLowerCase().replaceAll(/\W+/g, "-")}`, testInfo);
    }

    await page.goto(consentPath);
    await expect(page).toHaveURL(/\/oauth\/consent\?/);
    await audit(page, size, "consent", testInfo);

    await context.clearCookies();
    await signInAsDeveloper(page);
    await visit(page, size, "admin", "/dashboard/admin", testInfo);
    await context.close();
  });
}

/** Tab and Shift+Tab, round and round, never leave `dialog`. */
async function expectFocusTrapped(page: Page, dialog: Locator): Promise<void> {
  await expect(dialog).toBeVisible();
  for (const key of [...Array(12).fill("Tab"), ...Array(4).fill("Shift+Tab")] as string[]) {
    await page.keyboard.press(key);
    expect(await dialog.evaluate((element) => element.contains(document.activeElement)), key).toBe(true);
  }
}

/** Opens a dialog with `opener`, checks its focus trap, closes it with Escape: focus is back on `opener`. */
async function expectDialogManners(page: Page, opener: Locator, dialog: Locator): Promise<void> {
  await opener.click();
  await expectFocusTrapped(page, dialog);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}

test("every dialog traps focus, closes on Escape and gives focus back to the control that opened it", async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await signInAs(context, owner, owner.tenantId, "owner");
  const page = await context.newPage();
  await page.goto("/dashboard/connect");
  await settled(page);

  // The token shown once has no trigger: the form's button that created it gets focus back, whether the
  // dialog is closed with Escape or its Close button, and whether the form was sent by click or Enter.
  const create = page.getByRole("button", { name: "Create token" });
  await page.getByLabel("Name", { exact: true }).fill("focus-by-click");
  await create.click();
  const byClick = page.getByRole("dialog", { name: "Token “focus-by-click” created" });
  await expectFocusTrapped(page, byClick);
  await page.keyboard.press("Escape");
  await expect(byClick).toBeHidden();
  await expect(create).toBeFocused();

  await page.getByLabel("Name", { exact: true }).fill("focus-by-enter");
  await page.getByLabel("Name", { exact: true }).press("Enter");
  const byEnter = page.getByRole("dialog", { name: "Token “focus-by-enter” created" });
  await expect(byEnter).toBeVisible();
  await byEnter.getByRole("button", { name: "Close" }).click();
  await expect(byEnter).toBeHidden();
  await expect(create).toBeFocused();

  await expectDialogManners(
    page,
    page.getByRole("button", { name: "Revoke focus-by-click" }),
    page.getByRole("alertdialog", { name: "Revoke “focus-by-click”?" }),
  );
  await expectDialogManners(
    page,
    page.getByRole("button", { name: "Profile of focus-by-click" }),
    page.getByRole("dialog", { name: "Profile of “focus-by-click”" }),
  );

  await page.goto("/dashboard/keys");
  await settled(page);
  await expectDialogManners(
    page,
    page.getByRole("button", { name: "Add Brave Search key" }),
    page.getByRole("dialog", { name: "Add your Brave Search key" }),
  );
  await expectDialogManners(
    page,
    page.getByRole("button", { name: "Delete Tavily key" }),
    page.getByRole("alertdialog", { name: "Delete your Tavily key?" }),
  );

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard");
  await settled(page);
  await expectDialogManners(
    page,
    page.getByRole("button", { name: "Open navigation" }),
    page.getByRole("dialog", { name: "Searchmux" }),
  );
  await context.close();
});
