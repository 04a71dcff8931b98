/**
 * The API reference (/docs/api): Scalar's viewer renders the OpenAPI document offline under the page's CSP
 * (the `test` fixture fails on any CSP violation or console error) and loads nothing from another origin;
 * it is linked from the dashboard's header; a token picked when it is created fills its examples, kept in
 * this tab's sessionStorage only, and can be forgotten. The playground's "Copy as curl" on every run.
 */
import type { Page } from "@playwright/test";
import { settled, signInAsDeveloper } from "./support/dashboard";
import { BASE_URL } from "./support/e2e-server";
import { expect, test } from "./support/test";

test.describe.configure({ mode: "serial" });

/** Every request the page makes to another origin. */
function foreignRequests(page: Page): string[] {
  const foreign: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== new URL(BASE_URL).origin) foreign.push(request.url());
  });
  return foreign;
}

test("renders the OpenAPI document with the clients' introduction, offline, from the dashboard's header", async ({
  page,
}) => {
  const foreign = foreignRequests(page);
  await signInAsDeveloper(page);
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByText("Fused web search over the workspace's providers").first()).toBeVisible();
  await expect(page.getByText("@searchmux/client").first()).toBeVisible();
  await expect(page.getByText("from searchmux import Searchmux").first()).toBeVisible();
  // Scalar's offers of its hosted services, shown on localhost unless turned off.
  for (const offer of ["Generate SDK", "Developer Tools", "Deploy"]) {
    await expect(page.getByText(offer, { exact: true })).toHaveCount(0);
  }
  // The reference is tens of thousands of pixels long: what a reader first sees, not the full page.
  for (const [name, width, height] of [
    ["api-reference", 1440, 900],
    ["api-reference-phone", 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await settled(page);
    await page.screenshot({ path: `test-results/screenshots/${name}.png` });
  }
  expect(foreign).toEqual([]);
});

test("a token picked on creation fills the examples, in this tab's sessionStorage only, until forgotten", async ({
  page,
}) => {
  await signInAsDeveloper(page);
  await page.goto("/dashboard/connect");
  await page.getByLabel("Name", { exact: true }).fill("reference-token");
  await page.getByRole("button", { name: "Create token" }).click();
  const dialog = page.getByRole("dialog", { name: "Token “reference-token” created" });
  const token = (await dialog.getByTestId("new-token").locator("code").textContent()) ?? "";
  expect(token).toMatch(/^smx_/);
  await dialog.getByRole("link", { name: "Try it in the API reference" }).click();

  await expect(page).toHaveURL(/\/docs\/api$/);
  await expect(page.getByText("The examples and test requests use the token you picked")).toBeVisible();
  await expect(page.getByText(`Bearer ${token}`).first()).toBeAttached();
  const stored = await page.evaluate(() => ({
    session: JSON.stringify(sessionStorage),
    local: JSON.stringify(localStorage),
    cookie: document.cookie,
  }));
  expect(stored.session).toContain(token);
  expect(stored.local).not.toContain(token);
  expect(stored.cookie).not.toContain(token);
  expect(JSON.stringify(await page.context().cookies())).not.toContain(token);

  await page.getByRole("button", { name: "Forget it" }).click();
  await expect(page.getByText("The examples and test requests use the token you picked")).toHaveCount(0);
  await expect(page.getByText("Fused web search over the workspace's providers").first()).toBeVisible();
  await expect(page.getByText(`Bearer ${token}`)).toHaveCount(0);
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(token);
});

test("every playground run offers the same call as curl, the token as $SEARCHMUX_TOKEN, quotes escaped", async ({
  page,
}) => {
  await signInAsDeveloper(page);
  await page.goto("/dashboard/playground");
  await expect(page.getByTestId("copy-as-curl")).toHaveCount(0);
  await page.getByLabel("Query", { exact: true }).first().fill("it's curl");
  await page.getByRole("button", { name: "Run" }).first().click();
  const curl = page.getByTestId("copy-as-curl");
  await curl.getByText("Copy as curl").click();
  const command = (await curl.locator("code").textContent()) ?? "";
  expect(command).toContain(`curl -X POST '${BASE_URL}/api/v1/search'`);
  expect(command).toContain('-H "authorization: Bearer $SEARCHMUX_TOKEN"');
  expect(command).toContain(`"query":"it'\\''s curl"`);
  expect(command).not.toMatch(/smx_/);
  await expect(curl.getByRole("button", { name: "Copy as curl" })).toBeVisible();
});
