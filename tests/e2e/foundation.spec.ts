import { expect, test } from "./support/test";

test("the landing page says what the product is", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("The search gateway for AI agents");
  await expect(page.getByText("personal MCP URL")).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
});

test("health reports the embedded database ok", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body).toMatchObject({ status: expect.any(String), db: "ok", kv: "ok", providers: "ok" });
  expect(body.version).toMatch(/^\d+\.\d+\.\d+/);
});

test("the dashboard needs a session", async ({ page }) => {
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/signin$/);
});

test("the development sign-in reaches the signed-in dashboard with a personal workspace", async ({
  page,
}) => {
  await page.goto("/signin");
  await page.getByRole("button", { name: "Development sign-in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId("signed-in-as")).toHaveText("dev@searchmux.local");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Developer's workspace");
  const workspace = await page.getByText(/^Workspace /).textContent();
  await page.getByRole("link", { name: "Connect", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Connect a client" })).toBeVisible();
  await expect(
    page.getByText(/claude mcp add --transport http searchmux http:\/\/localhost:\d+\/api\/mcp/),
  ).toBeVisible();

  // Signing in again lands in the same workspace rather than creating another one.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/signin");
  await page.getByRole("button", { name: "Development sign-in" }).click();
  await expect(page.getByText(/^Workspace /)).toHaveText(workspace ?? "");
});

test("the API reference renders from the OpenAPI document", async ({ page, request }) => {
  const document = await (await request.get("/api/openapi.json")).json();
  expect(document.openapi).toBe("3.1.0");
  expect(Object.keys(document.paths)).toContain("/api/v1/search");
  await page.goto("/");
  await page.getByRole("link", { name: "API reference" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "API reference", exact: true })).toBeAttached();
  // Scalar's viewer lists each operation by its summary, and its path beside it.
  await expect(page.getByText("Fused web search over the workspace's providers").first()).toBeVisible();
  await expect(page.getByText("/api/v1/search", { exact: true }).first()).toBeAttached();
});
