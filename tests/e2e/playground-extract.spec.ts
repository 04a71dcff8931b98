/**
 * The workspace's own model on the Keys page and the playground's Extract and Images tabs, against the fake
 * providers: adding the model (its base URL, model, key and prices; a refused price and a refused address
 * named inline; the row's host, model and price; a key test that lists its models), the Extract tab filling a
 * schema from a page of the crawl site with that model and showing each URL's error, and the Images tab's
 * images fused from Brave and Serper, each with the providers that listed it.
 */
import type { Browser, Page } from "@playwright/test";
import { type CrawlSite, startCrawlSite } from "@/tests/fakes/crawl-site";
import { CLIENT_SITE_ADDRESS } from "./support/client-site";
import { screenshot, settled } from "./support/dashboard";
import { ALLOWLISTED_FAKES_ORIGIN, fakeRequests, setFakeScenario } from "./support/fake-providers";
import { ownerPage, type SeededUser, seedUser } from "./support/sessions";
import { expect, test } from "./support/test";

test.describe.configure({ mode: "serial" });

const MODEL_KEY = "sk-e2e-workspace-model-5e6f";
const MODEL_WIRE = "snippet-model";
const MODEL_NAME = "workspace-model";

let site: CrawlSite;
let owner: SeededUser;

test.beforeAll(async () => {
  site = await startCrawlSite(CLIENT_SITE_ADDRESS);
  owner = await seedUser("extractor@playground.e2e.test", "Ezra Extractor");
});
test.afterAll(async () => {
  await setFakeScenario(MODEL_WIRE, null);
  await site?.close();
});

const signedIn = (browser: Browser): Promise<Page> => ownerPage(browser, owner);

async function playgroundTab(page: Page, tab: "Extract" | "Images"): Promise<void> {
  await page.goto("/dashboard/playground");
  await settled(page);
  await page.getByRole("tab", { name: tab }).click();
}

test("the Keys page adds the workspace's own model: refused values named inline, then its host, model, price and a passing test", async ({
  browser,
}) => {
  const page = await signedIn(browser);
  await page.goto("/dashboard/keys?kind=extract");
  const row = page.getByTestId("provider-workspace_llm");
  await expect(row).toContainText("Your model (OpenAI-compatible)");
  await expect(row).toContainText("no key");

  await row.getByRole("button", { name: "Add Your model (OpenAI-compatible) key" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Base URL", { exact: true }).fill("https://127.0.0.1/v1");
  await dialog.getByLabel("Model", { exact: true }).fill(MODEL_NAME);
  await dialog.getByLabel("Input", { exact: true }).fill("-1");
  await dialog.getByLabel("Output", { exact: true }).fill("1.6");
  await dialog.getByLabel("API key", { exact: true }).fill(MODEL_KEY);
  await dialog.getByRole("button", { name: "Save key" }).click();
  await expect(dialog).toContainText("must be at least 0");

  await dialog.getByLabel("Input", { exact: true }).fill("0.4");
  await dialog.getByRole("button", { name: "Save key" }).click();
  // The address is refused by its rule alone, before anything is sent to it.
  await expect(dialog.getByLabel("Base URL", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(dialog).toContainText("refused: 127.0.0.1 is a loopback address");
  await screenshot(page, "keys-workspace-model-refused");

  await dialog.getByLabel("Base URL", { exact: true }).fill(`${ALLOWLISTED_FAKES_ORIGIN}/${MODEL_WIRE}`);
  await dialog.getByRole("button", { name: "Save key" }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText("your key");
  await expect(row).toContainText(`····${MODEL_KEY.slice(-4)}`);
  // The Key column also folds into the provider cell on narrow screens, a hidden copy at this width.
  await expect(row.getByTestId("key-endpoint").filter({ visible: true })).toHaveText(
    `${new URL(ALLOWLISTED_FAKES_ORIGIN).host} · ${MODEL_NAME} · $0.40 in, $1.60 out per million tokens`,
  );
  await expect(row).not.toContainText(MODEL_KEY);

  await row.getByRole("button", { name: "Test Your model (OpenAI-compatible) key" }).click();
  await expect(row).toContainText("The provider accepted the key. The test used 1 request of its budget.");
  await expect(row).toContainText("works");
  const listed = (await fakeRequests(MODEL_WIRE)).filter((r) => r.path === "/models");
  expect(listed.at(-1)?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
  await screenshot(page, "keys-workspace-model");
});

test("the Extract tab fills a schema from a page with the workspace's model, and shows each URL's data or error", async ({
  browser,
}) => {
  await setFakeScenario(MODEL_WIRE, {
    payload: {
      rules: [{ contains: "Article 2.3", reply: JSON.stringify({ title: "Article 2.3", section: 2 }) }],
    },
  });
  const page = await signedIn(browser);
  await playgroundTab(page, "Extract");
  const article = `${site.origin}/section/2/article-3`;
  const input = {
    urls: [article, `${site.origin}/gone`, "http://169.254.169.254/latest/meta-data/"],
    schema: {
      type: "object",
      properties: { title: { type: "string" }, section: { type: "integer" } },
      required: ["title", "section"],
      additionalProperties: false,
    },
  };
  await page.getByLabel("Input (JSON)", { exact: true }).fill(JSON.stringify(input, null, 2));
  await page.getByRole("button", { name: "Run" }).click();

  await expect(page.getByText("3 pages")).toBeVisible();
  const results = page.getByTestId("extract-result");
  await expect(results).toHaveCount(3);
  await expect(results.nth(0)).toContainText(article);
  await expect(results.nth(0)).toContainText("via workspace_llm");
  await expect(results.nth(0)).toContainText('"title": "Article 2.3"');
  await expect(results.nth(0)).toContainText('"section": 2');
  await expect(results.nth(1)).toContainText("the page could not be read");
  await expect(results.nth(2)).toContainText("invalid_input: 169.254.169.254 is a cloud metadata address");
  await screenshot(page, "playground-extract");

  const asked = (await fakeRequests(MODEL_WIRE)).filter((r) => r.path === "/chat/completions");
  expect(asked).toHaveLength(1);
  expect(asked[0]?.headers.authorization).toBe(`Bearer ${MODEL_KEY}`);
  expect(asked[0]?.body).toMatchObject({
    model: MODEL_NAME,
    response_format: { type: "json_schema", json_schema: { schema: input.schema, strict: true } },
  });

  await page.getByRole("link", { name: "Open trace" }).click();
  await expect(page).toHaveURL(/\/dashboard\/traces\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("extract");
  await expect(page.getByTestId("span-row").filter({ hasText: "workspace_llm" })).toHaveCount(1);
  await expect(page.locator("body")).not.toContainText(MODEL_KEY);
});

test("the Images tab shows images fused from Brave and Serper, each with the providers that listed it", async ({
  browser,
}) => {
  const page = await signedIn(browser);
  await page.goto("/dashboard/keys?kind=images");
  for (const [name, key] of [
    ["Brave Search", "brave-images-key-0007"],
    ["Serper", "serper-images-key-0008"],
  ] as const) {
    const row = page.getByTestId(`provider-${name === "Serper" ? "serper" : "brave"}`);
    await row.getByRole("button", { name: `Add ${name} key` }).click();
    await page.getByLabel("API key", { exact: true }).fill(key);
    await page.getByRole("button", { name: "Save key" }).click();
    await expect(row).toContainText(`····${key.slice(-4)}`);
  }

  await playgroundTab(page, "Images");
  await page.getByLabel("Query", { exact: true }).fill("aurora over iceland");
  // Serper documents no filter: it is asked only with safe search off.
  await page.getByLabel("Safe search", { exact: true }).click();
  await page.getByRole("option", { name: "Off" }).click();
  await page.getByRole("button", { name: "Run" }).click();

  await expect(page.getByText("3 images")).toBeVisible();
  const images = page.getByTestId("image-result");
  await expect(images).toHaveCount(3);
  await expect(images.nth(0)).toContainText("Image 1");
  await expect(images.nth(0)).toContainText("https://images.example.com/photo-1.jpg");
  for (const n of [0, 1, 2]) {
    const badges = images.nth(n).getByTestId("provider-badge");
    await expect(badges).toHaveText([`brave, best rank #${n + 1}`, `serper, best rank #${n + 1}`]);
  }
  await screenshot(page, "playground-images");
  expect((await fakeRequests("brave")).some((r) => r.path === "/res/v1/images/search")).toBe(true);
  expect((await fakeRequests("serper")).some((r) => r.path === "/images")).toBe(true);
});
