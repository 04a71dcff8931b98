/**
 * The playground's Research tab against the fake provider server: Serper (with the workspace's own key)
 * answers with pages of a small site on the loopback address the e2e server allowlists, so the job searches,
 * reads those pages and writes its report (extractive: no model answers here). The job's progress, its
 * report with citations linking the pages read, the sources with where each was found, its cost and its
 * trace with every sub-call linked; a second job, its searches held up, cancelled while it runs.
 */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "@playwright/test";
import { CLIENT_SITE_ADDRESS } from "./support/client-site";
import { screenshot, settled } from "./support/dashboard";
import { setFakeScenario } from "./support/fake-providers";
import { ownerPage, type SeededUser, seedUser } from "./support/sessions";
import { expect, test } from "./support/test";

test.describe.configure({ mode: "serial" });

/** Three articles on one subject, each in words of its own, so the report quotes (and cites) each. */
const ARTICLES: Record<string, { title: string; sentences: string[] }> = {
  "/tides/formation": {
    title: "How tide pools form",
    sentences: [
      "Tide pools form where the retreating sea leaves water trapped in hollows of rocky shores.",
      "Erosion by waves widens those hollows over centuries until they hold water between tides.",
    ],
  },
  "/tides/life": {
    title: "Life in tide pools",
    sentences: [
      "Anemones, hermit crabs and snails survive in tide pools by tolerating changing salinity.",
      "Every low tide the pool warms and its oxygen falls, which only hardy species can bear.",
    ],
  },
  "/tides/visiting": {
    title: "Visiting tide pools",
    sentences: [
      "Visitors should check the tide table so the rising water does not cut off their way back.",
      "Turning rocks over and leaving them upturned kills the creatures sheltering underneath them.",
    ],
  },
};

function articleHtml({ title, sentences }: { title: string; sentences: string[] }): string {
  const body = sentences.map((s) => `<p>${s} ${s}</p>`).join("");
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${body}</article></body></html>`;
}

let site: http.Server;
let origin = "";
let owner: SeededUser;

const serperResults = () =>
  Object.entries(ARTICLES).map(([path, { title, sentences }]) => ({
    title,
    url: `${origin}${path}`,
    snippet: sentences[0] ?? "",
  }));

test.beforeAll(async () => {
  site = http.createServer((req, res) => {
    const article = ARTICLES[req.url ?? ""];
    if (!article) return void res.writeHead(404).end("not found");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(articleHtml(article));
  });
  site.listen(0, CLIENT_SITE_ADDRESS);
  await once(site, "listening");
  origin = `http://${CLIENT_SITE_ADDRESS}:${(site.address() as AddressInfo).port}`;
  owner = await seedUser("researcher@playground.e2e.test", "Rhea Researcher");
});
test.afterAll(async () => {
  await setFakeScenario("serper", null);
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

const signedIn = (browser: Browser): Promise<Page> => ownerPage(browser, owner);

async function researchTab(page: Page): Promise<void> {
  await page.goto("/dashboard/playground");
  await settled(page);
  await page.getByRole("tab", { name: "Research" }).click();
}

async function start(page: Page, question: string, limits: { searches: string; pages: string }) {
  await page.getByLabel("Question", { exact: true }).fill(question);
  await page.getByLabel("Searches", { exact: true }).fill(limits.searches);
  await page.getByLabel("Pages to read", { exact: true }).fill(limits.pages);
  await page.getByLabel("Serper", { exact: true }).check();
  await page.getByRole("button", { name: "Start" }).click();
}

const QUESTION = "How do tide pools form and what lives in tide pools?";

test("a research job: live progress, a report citing the pages read, its sources, cost and trace with every sub-call", async ({
  browser,
}) => {
  const page = await signedIn(browser);
  await page.goto("/dashboard/keys?kind=search");
  const serper = page.getByTestId("provider-serper");
  await serper.getByRole("button", { name: "Add Serper key" }).click();
  await page.getByLabel("API key", { exact: true }).fill("serper-research-key-0004");
  await page.getByRole("button", { name: "Save key" }).click();
  await expect(serper).toContainText("····0004");
  // Slow enough searches that the progress shows them.
  await setFakeScenario("serper", { latencyMs: 2_500, results: serperResults() });

  await researchTab(page);
  await expect(page.getByText("No research job yet.")).toBeVisible();
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByText("Check the highlighted fields.")).toBeVisible();

  await start(page, QUESTION, { searches: "2", pages: "3" });
  const job = page.getByTestId("research-job");
  await expect(job.getByRole("heading", { level: 2 })).toHaveText(QUESTION);
  const progress = job.getByTestId("research-progress");
  await expect(progress).toContainText(/searching: .+step [2-3] of \d/);
  await expect(progress.getByRole("button", { name: "Cancel" })).toBeVisible();
  await screenshot(page, "playground-research-running");

  await expect(job.getByTestId("research-status")).toHaveText("done", { timeout: 45_000 });
  await expect(progress).toHaveCount(0);
  const report = job.getByTestId("research-report");
  await expect(report.getByRole("heading", { level: 1 })).toHaveText(QUESTION);
  await expect(report).toContainText("Tide pools form where the retreating sea");
  await expect(report).not.toContainText("found by");
  // Each citation opens the page it cites, in a new tab, endorsing nothing.
  const citation = report.getByRole("link", { name: /^Source 1: / }).first();
  await expect(citation).toHaveAttribute("href", new RegExp(`^${origin}/tides/`));
  await expect(citation).toHaveAttribute("target", "_blank");
  const rel = (await citation.getAttribute("rel"))?.split(" ").sort();
  expect(rel).toEqual(["nofollow", "noopener", "noreferrer"]);

  const sources = job.getByTestId("research-source");
  await expect(sources).toHaveCount(3);
  for (const { title } of Object.values(ARTICLES)) {
    await expect(sources.getByRole("link", { name: title, exact: true })).toHaveCount(1);
  }
  // Serper listed the first article first for the question itself (the first of the planned searches).
  const formation = sources.filter({ hasText: "How tide pools form" });
  await expect(formation.getByTestId("provider-badge")).toHaveAttribute("title", /^serper: best rank #1/);
  await formation
    .getByTestId("provenance")
    .getByText(/listings?$/)
    .click();
  await expect(formation.getByTestId("listing").first()).toHaveText(`serper#1${QUESTION}`);
  await expect(job.getByTestId("research-cost")).toHaveText(/^cost \$\d+\.\d{2,4}$/);
  await expect(page.getByTestId("research-recent").first()).toContainText(QUESTION);
  await expect(page.getByTestId("research-recent").first()).toContainText("done");
  await screenshot(page, "playground-research-report");

  await job.getByRole("link", { name: "Open trace" }).click();
  await expect(page).toHaveURL(/\/dashboard\/traces\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("research");
  const calls = page.getByTestId("sub-call");
  await expect(calls.filter({ hasText: "web_search" }).first()).toContainText(QUESTION);
  await expect(calls.filter({ hasText: "fetch" })).toContainText("3 pages");
  // Serper's price per search, each charged in its own trace.
  await expect(calls.filter({ hasText: "web_search" }).first()).toContainText("$0.0010");
  await expect(page.getByTestId("research-query").first()).toHaveText(QUESTION);
  await expect(page.getByTestId("research-page")).toHaveCount(3);
  await screenshot(page, "trace-research");
  await calls.filter({ hasText: "web_search" }).first().getByRole("link", { name: "web_search" }).click();
  await expect(page).toHaveURL(/\/dashboard\/traces\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("web_search");
  await expect(page.getByTestId("span-row").first()).toContainText("serper");
});

test("a research job cancelled while it searches ends cancelled; a recent job opens again", async ({
  browser,
}) => {
  const page = await signedIn(browser);
  // Searches that take longer than the test waits: the job is searching when Cancel is clicked.
  await setFakeScenario("serper", { latencyMs: 25_000, results: serperResults() });
  await researchTab(page);
  const question = "Which creatures shelter under tide pool rocks?";
  await start(page, question, { searches: "3", pages: "3" });
  const job = page.getByTestId("research-job");
  const progress = job.getByTestId("research-progress");
  await expect(progress).toContainText("searching:");
  await progress.getByRole("button", { name: "Cancel" }).click();
  await expect(job.getByTestId("research-status")).toHaveText("cancelled", { timeout: 20_000 });
  await expect(job.getByTestId("research-outcome")).toHaveText(
    "It was cancelled before it finished: there is no report.",
  );
  await expect(job.getByTestId("research-report")).toHaveCount(0);
  const recent = page.getByTestId("research-recent");
  await expect(recent.first()).toContainText(question);
  await expect(recent.first()).toContainText("cancelled");

  await recent.filter({ hasText: QUESTION }).getByRole("button").click();
  await expect(job.getByRole("heading", { level: 2 })).toHaveText(QUESTION);
  await expect(job.getByTestId("research-source")).toHaveCount(3);
});
