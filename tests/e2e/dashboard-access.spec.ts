/**
 * Members and admins: an admin invites someone, who accepts the link signed in as the invited address;
 * as a member they use the workspace (playground, provider status) but get no admin page, and an admin
 * form left open in their browser is refused by the server. The operator pages are the operator's alone.
 */
import { type BrowserContext, expect, test } from "@playwright/test";
import { screenshot, signInAsDeveloper, watchConsole } from "./support/dashboard";
import { type SeededUser, seedUser, signInAs } from "./support/sessions";

test.describe.configure({ mode: "serial" });

let invitee: SeededUser;
let workspaceId = "";
let inviteLink = "";

test.beforeAll(async () => {
  invitee = await seedUser("member@e2e.test", "Mia Member");
});

async function memberContext(browser: { newContext(): Promise<BrowserContext> }) {
  const context = await browser.newContext();
  await signInAs(context, invitee, workspaceId, "member");
  return context;
}

test("an admin invites a member, who accepts the link once, signed in as the invited address", async ({
  page,
  browser,
}) => {
  await signInAsDeveloper(page);
  workspaceId = ((await page.getByText(/^Workspace /).textContent()) ?? "").split(" ")[1] ?? "";
  expect(workspaceId).toMatch(/^[0-9a-f-]{36}$/);

  await page.getByRole("link", { name: "Team" }).click();
  await page.getByLabel("Email", { exact: true }).fill("not-an-email");
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByText("Invalid email address")).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(invitee.email);
  await page.getByRole("button", { name: "Invite" }).click();
  inviteLink = (await page.getByTestId("invite-link").locator("code").textContent()) ?? "";
  expect(inviteLink).toMatch(/\/invite\/[\w-]{16,}$/);
  await screenshot(page, "team-invited");

  const signedOut = await browser.newContext();
  const visitor = await signedOut.newPage();
  await visitor.goto(inviteLink);
  await visitor.getByRole("link", { name: "Sign in to accept" }).click();
  await expect(visitor).toHaveURL(/\/signin\?callbackUrl=%2Finvite%2F/);
  await signedOut.close();

  const own = await browser.newContext();
  await signInAs(own, invitee, invitee.tenantId, "owner");
  const guest = await own.newPage();
  const consoleErrors = watchConsole(guest);
  await guest.goto(inviteLink);
  await expect(guest.getByText(`You are signed in as ${invitee.email}`)).toBeVisible();
  await screenshot(guest, "invite");
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await expect(guest.getByText("You joined the workspace as member.")).toBeVisible();
  await guest.getByRole("button", { name: "Open this workspace" }).click();
  await expect(guest).toHaveURL(/\/dashboard$/);
  await expect(guest.getByText(`Workspace ${workspaceId}`)).toBeVisible();
  await guest.goto(inviteLink);
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await expect(guest.getByText(/This link is invalid, already used or expired/)).toBeVisible();
  consoleErrors.expectNone();
  await own.close();

  await page.reload();
  await expect(page.getByTestId("member-row").filter({ hasText: invitee.email })).toContainText("Member");

  // A key of the workspace's own, for the member's playground run below.
  await page.goto("/dashboard/keys?kind=search");
  await page.getByRole("button", { name: "Add Exa key" }).click();
  await page.getByLabel("API key", { exact: true }).fill("exa-e2e-key-0003");
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(page.getByTestId("provider-exa")).toContainText("····0003");
});

test("a member uses the workspace but sees no admin page", async ({ browser }) => {
  const context = await memberContext(browser);
  const page = await context.newPage();
  const consoleErrors = watchConsole(page);
  await page.goto("/dashboard");
  await expect(page.getByTestId("signed-in-as")).toHaveText(invitee.email);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Playground" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Budgets" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Admin" })).toHaveCount(0);
  await screenshot(page, "member-overview");

  for (const [path, notice] of [
    ["/dashboard/budgets", "Budgets are managed by admins"],
    ["/dashboard/traces", "Traces are visible to admins"],
    ["/dashboard/admin", "For the operator of this deployment"],
    ["/dashboard/connect", "Tokens are managed by admins"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByText(notice)).toBeVisible();
  }
  await expect(page.getByTestId("mcp-url")).toBeVisible();

  await page.goto("/dashboard/keys");
  await expect(page.getByTestId("provider-exa")).toContainText("your key");
  await expect(page.getByRole("button", { name: /Add .* key/ })).toHaveCount(0);
  await screenshot(page, "member-keys");

  await page.goto("/dashboard/team");
  await expect(page.getByRole("button", { name: "Invite" })).toHaveCount(0);

  await page.goto("/dashboard/playground");
  await page.getByLabel("Query", { exact: true }).fill("members search too");
  await page.getByLabel("Exa", { exact: true }).check();
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByTestId("search-result").first().getByTestId("provider-badge")).toHaveText([
    "exa #1",
  ]);
  await expect(page.getByText("Traces are visible to admins.")).toBeVisible();
  consoleErrors.expectNone();
  await context.close();
});

test("an admin form left open after losing admin rights is refused by the server", async ({
  page,
  context,
}) => {
  await signInAsDeveloper(page);
  await page.goto("/dashboard/connect");
  await page.getByLabel("Name", { exact: true }).fill("should-not-exist");
  // The same browser is now signed in as the member: the open form's action runs with their rights.
  await signInAs(context, invitee, workspaceId, "member");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("Only workspace owners and admins can do this.")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.goto("/dashboard/connect");
  await expect(page.getByText("Tokens are managed by admins")).toBeVisible();
});

test("the playground endpoint refuses a signed-out caller and another site's page", async ({
  page,
  request,
}) => {
  const body = { tool: "web_search", input: { query: "x" } };
  expect((await request.post("/dashboard/playground/run", { data: body })).status()).toBe(401);
  await signInAsDeveloper(page);
  const foreign = await page.request.post("/dashboard/playground/run", {
    data: body,
    headers: { origin: "https://evil.example" },
  });
  expect(foreign.status()).toBe(403);
  const invalid = await page.request.post("/dashboard/playground/run", {
    data: { tool: "shell", input: {} },
  });
  expect(invalid.status()).toBe(400);
});
