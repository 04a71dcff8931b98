/**
 * Roles between two real signed-in users (security #14): an owner invites an admin; the admin's Team page
 * offers no ownership controls, and the server refuses them anyway when the admin's browser sends them
 * (from a Team page rendered for the owner); the owner gives and takes ownership; removing the admin stops
 * the token they created at once.
 */
import type { Browser, Page } from "@playwright/test";
import { BASE_URL } from "./support/e2e-server";
import { type SeededUser, seedUser, signInAs } from "./support/sessions";
import { expect, test } from "./support/test";

test.describe.configure({ mode: "serial" });

const OWNER_ONLY = "only an owner can make someone an owner, or change or remove an owner";

let owner: SeededUser;
let admin: SeededUser;
let adminToken = "";

const usageHistory = (bearer: string) =>
  fetch(`${BASE_URL}/api/v1/usage/history?days=1`, { headers: { authorization: `Bearer ${bearer}` } });

/** A page of `user` signed in to the owner's workspace with `role`. */
async function pageOf(browser: Browser, user: SeededUser, role: "owner" | "admin"): Promise<Page> {
  const context = await browser.newContext();
  await signInAs(context, user, owner.tenantId, role);
  return context.newPage();
}

/** Picks `option` in the Radix select labelled `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByLabel(label, { exact: true }).click();
  await page.getByRole("option", { name: option, exact: true }).click();
}

const rowOf = (page: Page, user: SeededUser) =>
  page.getByTestId("member-row").filter({ hasText: user.email });

test.beforeAll(async () => {
  owner = await seedUser("owner@roles.e2e.test", "Olive Owner");
  admin = await seedUser("admin@roles.e2e.test", "Adam Admin");
});

test("the owner invites an admin, who joins and creates a token", async ({ browser }) => {
  const page = await pageOf(browser, owner, "owner");
  await page.goto("/dashboard/team");
  await page.getByLabel("Email", { exact: true }).fill(admin.email);
  await choose(page, "Role", "Admin — also manages keys, budgets, tokens");
  await page.getByRole("button", { name: "Invite" }).click();
  const link = (await page.getByTestId("invite-link").locator("code").textContent()) ?? "";

  const joining = await browser.newContext();
  await signInAs(joining, admin, admin.tenantId, "owner");
  const guest = await joining.newPage();
  await guest.goto(link);
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await expect(guest.getByText("You joined the workspace as admin.")).toBeVisible();
  await joining.close();

  const adminPage = await pageOf(browser, admin, "admin");
  await adminPage.goto("/dashboard/connect");
  await adminPage.getByLabel("Name", { exact: true }).fill("adams-agent");
  await adminPage.getByRole("button", { name: "Create token" }).click();
  const dialog = adminPage.getByRole("dialog", { name: "Token “adams-agent” created" });
  adminToken = (await dialog.getByTestId("new-token").locator("code").textContent()) ?? "";
  expect(adminToken).toMatch(/^smx_/);
  expect((await usageHistory(adminToken)).status).toBe(200);
});

test("an admin's Team page offers no ownership controls", async ({ browser }) => {
  const page = await pageOf(browser, admin, "admin");
  await page.goto("/dashboard/team");
  await expect(page.getByText("Removing someone revokes the API tokens they created")).toBeVisible();
  const ownerRow = rowOf(page, owner);
  await expect(ownerRow).toContainText("owner");
  await expect(ownerRow.getByRole("combobox")).toHaveCount(0);
  await expect(ownerRow.getByRole("button")).toHaveCount(0);
  await page.getByLabel(`Role of ${admin.email}`, { exact: true }).click();
  await expect(page.getByRole("option")).toHaveText(["Admin", "Member"]);
  await page.keyboard.press("Escape");
});

test("the server refuses the admin's ownership changes sent from a Team page rendered for the owner", async ({
  browser,
}) => {
  const page = await pageOf(browser, owner, "owner");
  await page.goto("/dashboard/team");
  // The same browser is now the admin's: the page's controls call the server actions with their session,
  // as a hostile client would send them.
  await signInAs(page.context(), admin, owner.tenantId, "admin");

  await choose(page, `Role of ${admin.email}`, "Owner");
  await expect(rowOf(page, admin).getByRole("alert")).toHaveText(OWNER_ONLY);
  await choose(page, `Role of ${owner.email}`, "Member");
  await expect(rowOf(page, owner).getByRole("alert")).toHaveText(OWNER_ONLY);
  await page.getByRole("button", { name: `Remove ${owner.email}` }).click();
  const confirm = page.getByRole("alertdialog");
  await confirm.getByRole("button", { name: "Leave" }).click();
  await expect(confirm.getByRole("alert")).toHaveText(OWNER_ONLY);
  await confirm.getByRole("button", { name: "Cancel" }).click();

  const ownerView = await pageOf(browser, owner, "owner");
  await ownerView.goto("/dashboard/team");
  await expect(ownerView.getByLabel(`Role of ${owner.email}`)).toHaveText("Owner");
  await expect(ownerView.getByLabel(`Role of ${admin.email}`)).toHaveText("Admin");
});

test("the owner gives and takes ownership; removing the admin stops their token at once", async ({
  browser,
}) => {
  const page = await pageOf(browser, owner, "owner");
  await page.goto("/dashboard/team");
  await choose(page, `Role of ${admin.email}`, "Owner");
  await expect(page.getByLabel(`Role of ${admin.email}`)).toHaveText("Owner");
  await choose(page, `Role of ${admin.email}`, "Admin");
  await expect(page.getByLabel(`Role of ${admin.email}`)).toHaveText("Admin");

  expect((await usageHistory(adminToken)).status).toBe(200);
  await page.getByRole("button", { name: `Remove ${admin.email}` }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toContainText("the API tokens they created stop working at once");
  await confirm.getByRole("button", { name: "Remove member" }).click();
  await expect(rowOf(page, admin)).toHaveCount(0);
  expect((await usageHistory(adminToken)).status).toBe(401);
});
