/**
 * The Connect page edits a token's profile (#31): the tools checklist narrows what the token lists, the
 * tools/list size follows the choice, a default the tool would refuse is refused with the reason, and the
 * saved profile is what an MCP client with the token then lists.
 */
import { settled, signInAsDeveloper } from "./support/dashboard";
import { connectClient, MCP_URL } from "./support/mcp";
import { expect, test } from "./support/test";

test("a token's profile is edited on the Connect page and narrows its MCP tool list", async ({ page }) => {
  await signInAsDeveloper(page);
  await page.goto("/dashboard/connect");
  await page.getByLabel("Name", { exact: true }).fill("profiled-agent");
  await page.getByRole("button", { name: "Create token" }).click();
  const created = page.getByRole("dialog", { name: "Token “profiled-agent” created" });
  const token = (await created.getByTestId("new-token").locator("code").textContent()) ?? "";
  await created.getByRole("button", { name: "Close" }).click();

  const row = page.getByTestId("token-row").filter({ hasText: "profiled-agent" });
  await row.getByRole("button", { name: "Profile of profiled-agent" }).click();
  const dialog = page.getByRole("dialog", { name: "Profile of “profiled-agent”" });
  const size = dialog.getByTestId("tool-list-size");
  const fullSize = Number((await size.textContent())?.match(/([\d,]+) bytes/)?.[1]?.replace(/,/g, ""));
  const others = ["web_search", "crawl", "extract", "answer", "paper_search", "image_search", "similar"];
  for (const tool of [...others, "research", "budget_status"])
    await dialog.getByLabel(tool, { exact: true }).click();
  const oneToolSize = Number((await size.textContent())?.match(/([\d,]+) bytes/)?.[1]?.replace(/,/g, ""));
  expect(oneToolSize).toBeLessThan(fullSize);
  expect(oneToolSize).toBeLessThanOrEqual(3 * 1024);
  await expect(size).toContainText(`≈${Math.ceil(oneToolSize / 4)} tokens`);

  const defaults = dialog.getByLabel("Defaults (JSON)");
  await defaults.fill('{"fetch": {"format": "pdf"}}');
  await dialog.getByRole("button", { name: "Save profile" }).click();
  await expect(dialog.getByText(/fetch\.format/)).toBeVisible();
  await defaults.fill('{"fetch": {"format": "text"}}');
  await dialog.getByRole("button", { name: "Save profile" }).click();
  await expect(dialog.getByText("Profile saved.")).toBeVisible();
  await settled(page);

  const client = await connectClient(MCP_URL, token);
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name)).toEqual(["fetch"]);
  expect(tools[0]?.inputSchema.properties?.format).toMatchObject({ default: "text" });
  await client.close();
});
