/** What the dashboard specs share: signing in and screenshots of each page. */
import { mkdirSync } from "node:fs";
import { expect, type Page } from "@playwright/test";

const SCREENSHOTS = "test-results/screenshots";

/** Waits until the page has streamed in (no loading skeleton left) and its charts have had time to size. */
export async function settled(page: Page): Promise<void> {
  await expect(page.locator("[data-page-skeleton]")).toHaveCount(0);
  await page.waitForLoadState("networkidle");
}

export async function signInAsDeveloper(page: Page): Promise<void> {
  await page.goto("/signin");
  await page.getByRole("button", { name: "Development sign-in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // Leaving a page while it still streams makes React report the unfinished boundary (error 419).
  await settled(page);
}

/** Saves a full-page screenshot of the settled page as test-results/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  await settled(page);
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}
