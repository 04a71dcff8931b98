/**
 * Security headers on the real server (security L2): every page answers with a nonce-based
 * Content-Security-Policy whose nonce every script of the page carries, nosniff, a Referrer-Policy (none at
 * all on the OAuth consent page) and refuses to be framed, even by a page of its own origin signed in;
 * API responses get nosniff and a policy that runs nothing and frames nothing. The other specs check that
 * no page they visit hits a CSP violation (support/test.ts).
 */
import type { Page } from "@playwright/test";
import { signInAsDeveloper } from "./support/dashboard";
import { BASE_URL } from "./support/e2e-server";
import { expect, test } from "./support/test";

/** Every page of the product, as the signed-in developer (an operator) sees it. */
const PAGES = [
  "/",
  "/docs/api",
  "/dashboard",
  "/dashboard/keys",
  "/dashboard/team",
  "/dashboard/connect",
  "/dashboard/settings",
  "/dashboard/budgets",
  "/dashboard/traces",
  "/dashboard/audit",
  "/dashboard/playground",
  "/dashboard/admin",
  "/invite/not-a-real-invitation",
  "/oauth/consent",
];

/** A page of the product's own origin (answered by the browser's route) that frames `?src=`. */
const FRAMER = `${BASE_URL}/e2e-framer`;

function directives(policy: string | undefined): Map<string, string[]> {
  const parsed = new Map<string, string[]>();
  for (const directive of (policy ?? "").split(";")) {
    const [name, ...values] = directive.trim().split(/\s+/);
    if (name) parsed.set(name, values);
  }
  return parsed;
}

/** Checks a page's headers and that every script element it was sent carries the policy's nonce; returns the nonce. */
async function expectPageHeaders(page: Page, path: string): Promise<string> {
  const response = await page.goto(path);
  expect(response?.ok(), path).toBe(true);
  const headers = response?.headers() ?? {};
  const policy = directives(headers["content-security-policy"]);
  const scriptSrc = policy.get("script-src") ?? [];
  const nonce = scriptSrc.find((source) => source.startsWith("'nonce-"))?.slice(7, -1) ?? "";
  expect(nonce, `${path}: script-src ${scriptSrc.join(" ")}`).toMatch(/^[A-Za-z0-9+/=]{22,}$/);
  expect(scriptSrc, path).toContain("'strict-dynamic'");
  expect(scriptSrc, path).not.toContain("'unsafe-inline'");
  expect(Object.fromEntries(policy), path).toMatchObject({
    "default-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "connect-src": ["'self'"],
    "img-src": ["'self'", "data:"],
  });
  expect(headers["x-frame-options"], path).toBe("DENY");
  expect(headers["x-content-type-options"], path).toBe("nosniff");
  expect(headers["referrer-policy"], path).toBe(
    path.startsWith("/oauth/") ? "no-referrer" : "strict-origin-when-cross-origin",
  );
  // The scripts the server sent each carry the nonce; chunks those scripts load later (the API reference's
  // lazily loaded viewer) carry none and need none: 'strict-dynamic' trusts what a nonced script loads.
  const html = (await response?.text()) ?? "";
  const scriptNonces = [...html.matchAll(/<script\b[^>]*>/g)].map(
    ([tag]) => /\snonce="([^"]*)"/.exec(tag)?.[1] ?? "",
  );
  expect(scriptNonces.length, path).toBeGreaterThan(0);
  expect(new Set(scriptNonces), path).toEqual(new Set([nonce]));
  return nonce;
}

test("every page sends the security headers, with a fresh nonce each time", async ({ page, browser }) => {
  const signedOut = await browser.newContext();
  const visitor = await signedOut.newPage();
  await expectPageHeaders(visitor, "/signin");
  await expect(visitor.getByRole("button", { name: "Development sign-in" })).toBeEnabled();
  await signedOut.close();

  await signInAsDeveloper(page);
  const nonces = new Set<string>();
  for (const path of PAGES) nonces.add(await expectPageHeaders(page, path));
  nonces.add(await expectPageHeaders(page, "/dashboard"));
  expect(nonces.size).toBe(PAGES.length + 1);
});

test("no page can be framed, not even by its own origin with a session", async ({ page, pageProblems }) => {
  await signInAsDeveloper(page);
  await page.route(`${FRAMER}?**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><iframe src="${new URL(route.request().url()).searchParams.get("src")}"></iframe>`,
    }),
  );
  for (const path of ["/signin", ...PAGES]) {
    // The load event waits for the frame, and Chromium reports the refusal before it.
    await page.goto(`${FRAMER}?src=${encodeURIComponent(path)}`);
    expect(pageProblems.take(/frame-ancestors 'none'/), path).toHaveLength(1);
    const framed = page.frames().find((frame) => frame !== page.mainFrame());
    expect(framed?.url(), path).not.toContain(BASE_URL);
  }
});

test("API responses are not sniffed, framed or run", async ({ request }) => {
  for (const path of ["/api/health", "/api/openapi.json", "/.well-known/oauth-authorization-server"]) {
    const response = await request.get(path);
    expect(response.ok(), path).toBe(true);
    expect(response.headers(), path).toMatchObject({
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    });
  }
});
