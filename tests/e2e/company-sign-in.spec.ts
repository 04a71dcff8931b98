/**
 * Company sign-in and invitation emails, end to end: a real OpenID Connect provider (oidc-provider, with
 * its own login and consent pages) and a real SMTP server, both run beside the e2e server
 * (support/company-sign-in.ts). Signing in lands in the dashboard; an unverified address, an address that
 * already signs in another way, a wrong client secret, another issuer and a provider without discovery are
 * each refused with a sentence on the sign-in page. An invitation email arrives at the SMTP server and its
 * link, opened by the invitee signing in with company sign-in, joins the workspace; an email the server
 * refuses leaves the invitation and its link on the page.
 */
import { type APIRequestContext, type Page, request } from "@playwright/test";
import type { IdentityProviderMode } from "@/tests/support/identity-provider";
import { REFUSED_DOMAIN } from "@/tests/support/mail-server";
import { IDENTITY_PROVIDER_ISSUER, mailTo, OIDC_NAME } from "./support/company-sign-in";
import { screenshot, settled, signInAsDeveloper } from "./support/dashboard";
import { seedUser } from "./support/sessions";
import { expect, test } from "./support/test";

// The provider's pages are served with the test authority's certificate, which the browser does not know.
test.use({ ignoreHTTPSErrors: true });

let control: APIRequestContext;
test.beforeAll(async () => {
  control = await request.newContext({ ignoreHTTPSErrors: true });
});
test.afterEach(async () => {
  await control.delete(`${IDENTITY_PROVIDER_ISSUER}/_control`);
});
test.afterAll(async () => control.dispose());

async function identityProvider(mode: Partial<IdentityProviderMode>) {
  const response = await control.put(`${IDENTITY_PROVIDER_ISSUER}/_control`, { data: mode });
  expect(response.status()).toBe(204);
}

/** From the sign-in page through the provider's login and consent pages, as `login`. */
async function signInWithCompany(page: Page, login: string, callbackUrl?: string) {
  // A session at the provider from an earlier attempt would answer without its login page.
  await page.context().clearCookies();
  // The provider's pages import a web font: nothing leaves this machine.
  await page.context().route(/^https:\/\/fonts\./, (route) => route.abort());
  await page.goto(callbackUrl ? `/signin?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/signin");
  await page.getByRole("button", { name: `Continue with ${OIDC_NAME}` }).click();
  await expect(page).toHaveURL(new RegExp(`^${IDENTITY_PROVIDER_ISSUER}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
}

async function expectRefusal(page: Page, code: string, sentence: RegExp) {
  await expect(page).toHaveURL(new RegExp(`/signin\\?.*error=${code}`));
  await expect(page.getByTestId("sign-in-error")).toHaveText(sentence);
  await expect(page.getByTestId("sign-in-error")).toHaveAttribute("role", "alert");
  await expect(page.getByRole("button", { name: `Continue with ${OIDC_NAME}` })).toBeVisible();
}

test("signs in through the company identity provider and lands in the dashboard", async ({ page }) => {
  await signInWithCompany(page, "ada@corp.test");
  await expect(page).toHaveURL(/\/dashboard$/);
  await settled(page);
  await expect(page.getByTestId("signed-in-as")).toHaveText("ada@corp.test");
  await screenshot(page, "company-sign-in-dashboard");
});

test("refuses an address the provider has not verified, and one that signs in another way", async ({
  page,
}) => {
  await signInWithCompany(page, "unverified-ben@corp.test");
  await expectRefusal(page, "OidcEmailUnverified", /has not verified your email address/);
  await screenshot(page, "company-sign-in-refused");

  const existing = await seedUser("olive@corp.test", "Olive");
  await signInWithCompany(page, existing.email);
  await expectRefusal(
    page,
    "OAuthAccountNotLinked",
    /already belongs to an account that signs in another way/,
  );
});

test("refuses a wrong client secret and another issuer's ID token with a sentence, not a crash", async ({
  page,
}) => {
  await identityProvider({ clientSecret: "not-the-secret-the-server-holds" });
  await signInWithCompany(page, "carl@corp.test");
  await expectRefusal(page, "OAuthCallback", /answer could not be verified/);

  await control.delete(`${IDENTITY_PROVIDER_ISSUER}/_control`);
  await identityProvider({ issuerPath: "/elsewhere" });
  await signInWithCompany(page, "carl@corp.test");
  await expectRefusal(page, "OidcIssuer", /names another issuer than the one this server is configured with/);
});

test("says so when the provider's configuration cannot be read", async ({ page }) => {
  await identityProvider({ discovery: false });
  await page.goto("/signin");
  await page.getByRole("button", { name: `Continue with ${OIDC_NAME}` }).click();
  await expectRefusal(page, "OAuthSignin", /could not be reached or its configuration could not be read/);
});

test("emails an invitation whose link the invitee opens, signs in with, and joins by", async ({
  page,
  browser,
}) => {
  await signInAsDeveloper(page);
  const workspace = ((await page.getByText(/^Workspace /).textContent()) ?? "").split(" ")[1] ?? "";
  await page.getByRole("link", { name: "Team" }).click();
  await page.getByLabel("Email", { exact: true }).fill("ivy@corp.test");
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("invite-outcome")).toHaveText(/^Invitation sent to ivy@corp\.test\./);
  await screenshot(page, "team-invitation-emailed");

  await expect.poll(async () => (await mailTo("ivy@corp.test")).length).toBe(1);
  const [message] = await mailTo("ivy@corp.test");
  expect(message?.subject).toBe("You are invited to a Searchmux workspace");
  expect(message?.from?.text).toBe('"Searchmux" <invites@searchmux.test>');
  const link = /Accept the invitation: (\S+)/.exec(message?.text ?? "")?.[1] ?? "";
  expect(message?.html).toContain(`href="${link}"`);
  const invitePath = new URL(link).pathname;
  expect(link).toBe(`${new URL(page.url()).origin}${invitePath}`);

  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const invitee = await context.newPage();
  await invitee.goto(link);
  await invitee.getByRole("link", { name: "Sign in to accept" }).click();
  await signInWithCompany(invitee, "ivy@corp.test", invitePath);
  await expect(invitee).toHaveURL(new RegExp(`${invitePath}$`));
  await expect(invitee.getByText("You are signed in as ivy@corp.test")).toBeVisible();
  await settled(invitee); // hydrated: a click before it would be lost
  await invitee.getByRole("button", { name: "Accept invitation" }).click();
  await expect(invitee.getByText("You joined the workspace as member.")).toBeVisible();
  await invitee.getByRole("button", { name: "Open this workspace" }).click();
  await expect(invitee.getByText(`Workspace ${workspace}`)).toBeVisible();
  await context.close();
});

test("keeps the invitation and shows its link when the mail server refuses the email", async ({ page }) => {
  await signInAsDeveloper(page);
  await page.getByRole("link", { name: "Team" }).click();
  const address = `nobody@${REFUSED_DOMAIN}`;
  await page.getByLabel("Email", { exact: true }).fill(address);
  await page.getByRole("button", { name: "Invite" }).click();
  await expect(page.getByTestId("invite-outcome")).toHaveText(
    `The invitation is made, but the email to ${address} was not sent: the mail server refused the recipient. Send them this link yourself. It works once, for that address, within 7 days. It is not shown again.`,
  );
  await expect(page.getByTestId("invite-link")).toBeVisible();
  await expect(page.getByTestId("invitation-row").filter({ hasText: address })).toBeVisible();
  await screenshot(page, "team-invitation-email-failed");
});
