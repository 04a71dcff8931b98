/**
 * Members and admins: an admin invites someone, sees the invitation pending until it is accepted, and
 * revokes another; the invitee accepts the link signed in as the invited address. As a member they use the
 * workspace (playground, provider status, their own traces and tokens) but get no admin page, and an admin
 * form left open in their browser is refused by the server. The operator pages are the operator's alone.
 * The playground is rate-limited like a token.
 */
import type { BrowserContext } from "@playwright/test";
import { screenshot, signInAsDeveloper } from "./support/dashboard";
import { type SeededUser, seedUser, signInAs } from "./support/sessions";
import { expect, test } from "./support/test";

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
  await expect(page.getByText("must be an email address")).toBeVisible();
  await page.getByLabel("Email", { exact: true }).fill(invitee.email);
  await page.getByRole("button", { name: "Invite" }).click();
  inviteLink = (await page.getByTestId("invite-link").locator("code").textContent()) ?? "";
  expect(inviteLink).toMatch(/\/invite\/[\w-]{16,}$/);
  await expect(page.getByTestId("invitation-row").filter({ hasText: invitee.email })).toContainText("member");
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
  await own.close();

  await page.reload();
  await expect(page.getByTestId("member-row").filter({ hasText: invitee.email })).toContainText("Member");
  // Accepted: no longer pending.
  await expect(page.getByTestId("invitation-row").filter({ hasText: invitee.email })).toHaveCount(0);

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
  await page.goto("/dashboard");
  await expect(page.getByTestId("signed-in-as")).toHaveText(invitee.email);
  const nav = page.getByRole("navigation", { name: "Dashboard" });
  await expect(nav.getByRole("link", { name: "Playground" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Budgets" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Admin" })).toHaveCount(0);
  await screenshot(page, "member-overview");

  for (const [path, notice] of [
    ["/dashboard/budgets", "Budgets are managed by admins"],
    ["/dashboard/audit", "The audit log is for admins"],
    ["/dashboard/admin", "For the operator of this deployment"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByText(notice)).toBeVisible();
  }

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
    "exa, best rank #1",
  ]);
  // Their own call's trace is theirs to read, and says who made it.
  await page.getByRole("link", { name: "Open trace" }).click();
  await expect(page.getByTestId("trace-by")).toHaveText(`by ${invitee.name}`);
  await page.goto("/dashboard/traces");
  await expect(page.getByTestId("trace-row")).toHaveCount(1);
  await expect(page.getByTestId("trace-row").getByTestId("trace-by")).toHaveText(`by ${invitee.name}`);
  await expect(page.getByLabel("Made by")).toHaveCount(0);
  await screenshot(page, "member-traces");
  await context.close();
});

test("a member creates, sees and revokes tokens of their own, within their role; admins see whose", async ({
  browser,
  page,
}) => {
  const context = await memberContext(browser);
  const member = await context.newPage();
  await member.goto("/dashboard/connect");
  await expect(member.getByTestId("mcp-url")).toBeVisible();
  // The admin scope is not theirs to give.
  await expect(member.getByLabel(/^admin/)).toHaveCount(0);
  await member.getByLabel("Name", { exact: true }).fill("mia-laptop");
  await member.getByRole("button", { name: "Create token" }).click();
  const dialog = member.getByRole("dialog", { name: "Token “mia-laptop” created" });
  await expect(dialog.getByTestId("new-token")).toContainText("smx_");
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(member.getByTestId("token-row")).toHaveCount(1);
  await expect(member.getByTestId("token-row")).toContainText("mia-laptop");
  await screenshot(member, "member-tokens");

  await signInAsDeveloper(page);
  await page.goto("/dashboard/connect");
  const theirs = page.getByTestId("token-row").filter({ hasText: "mia-laptop" });
  await expect(theirs).toContainText(invitee.name);

  await member.reload();
  await member.getByRole("button", { name: "Revoke mia-laptop" }).click();
  await member.getByRole("button", { name: "Revoke token" }).click();
  await expect(member.getByTestId("token-row")).toContainText("revoked");
  await context.close();
});

test("an admin revokes a pending invitation, and its link stops working", async ({ page, browser }) => {
  await signInAsDeveloper(page);
  await page.goto("/dashboard/team");
  await page.getByLabel("Email", { exact: true }).fill(invitee.email);
  await page.getByRole("button", { name: "Invite" }).click();
  const link = (await page.getByTestId("invite-link").locator("code").textContent()) ?? "";
  const row = page.getByTestId("invitation-row").filter({ hasText: invitee.email });
  await expect(row).toHaveCount(1);
  await row.getByRole("button", { name: `Revoke the invitation of ${invitee.email}` }).click();
  await page.getByRole("button", { name: "Revoke invitation" }).click();
  await expect(row).toHaveCount(0);

  const own = await browser.newContext();
  await signInAs(own, invitee, invitee.tenantId, "owner");
  const guest = await own.newPage();
  await guest.goto(link);
  await guest.getByRole("button", { name: "Accept invitation" }).click();
  await expect(guest.getByText(/This link is invalid, already used or expired/)).toBeVisible();
  await own.close();
});

test("an admin form left open after losing admin rights is refused by the server", async ({
  page,
  context,
}) => {
  await signInAsDeveloper(page);
  await page.goto("/dashboard/connect");
  await page.getByLabel("Name", { exact: true }).fill("should-not-exist");
  await page.getByLabel(/^admin/).check();
  // The same browser is now signed in as the member: the open form's action runs with their rights.
  await signInAs(context, invitee, workspaceId, "member");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByText("your role does not include: admin")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  await page.goto("/dashboard/connect");
  await expect(page.getByLabel(/^admin/)).toHaveCount(0);
  await expect(page.getByTestId("token-row").filter({ hasText: "should-not-exist" })).toHaveCount(0);
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

test("Settings set the rate limit and the grounded-snippets default; the playground is held to that limit", async ({
  browser,
  pageProblems,
}) => {
  // The invitee's own workspace, so the low limit touches no other test.
  const context = await browser.newContext();
  await signInAs(context, invitee, invitee.tenantId, "owner");
  const page = await context.newPage();
  await page.goto("/dashboard/settings");
  const grounded = page.getByRole("checkbox", { name: "Grounded snippets by default" });
  await expect(grounded).not.toBeChecked();
  await page.getByLabel("Requests per minute per token").fill("2");
  await grounded.check();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText(/ and write grounded snippets/)).toBeVisible();
  await page.reload();
  await expect(page.getByRole("checkbox", { name: "Grounded snippets by default" })).toBeChecked();

  const run = () =>
    page.request.post("/dashboard/playground/run", {
      data: { tool: "web_search", input: { query: "rate limited" } },
    });
  expect((await run()).status()).toBe(200);
  expect((await run()).status()).toBe(200);
  const refused = await run();
  expect(refused.status()).toBe(429);
  expect(Number(refused.headers()["retry-after"])).toBeGreaterThanOrEqual(1);
  expect((await refused.json()).error.code).toBe("rate_limited");

  await page.goto("/dashboard/playground");
  await page.getByLabel("Query", { exact: true }).fill("one too many");
  await page.getByRole("button", { name: "Run" }).click();
  await expect(page.getByText(/Rate limit of 2 runs a minute reached; try again in \d+ s\./)).toBeVisible();
  // The refused run is a 429, which the browser logs.
  await expect
    .poll(() => pageProblems.take(/status of 429 .*\/dashboard\/playground\/run\)$/).length)
    .toBe(1);
  // The estimate beside Run counts against the same limit: on a slow machine its debounce ends before the
  // click and it is refused too (the figure then shows none), which the browser logs as well.
  pageProblems.take(/status of 429 .*\/dashboard\/playground\/estimate\)$/);
  await context.close();
});
