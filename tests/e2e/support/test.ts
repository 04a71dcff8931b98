/**
 * The `test` and `expect` every spec imports: Playwright's, plus a watch on every page of the product in
 * every browser context the worker opens (the default `page`, `browser.newContext()` ones, those of
 * `beforeAll` hooks).
 * A console error, an uncaught exception or a Content-Security-Policy violation fails the test it happens
 * in (one in a `beforeAll` fails the test after it); a spec that provokes one on purpose claims it with
 * `pageProblems.take(pattern)`.
 */
import { type BrowserContext, test as base, expect, type Page } from "@playwright/test";
import { BASE_URL } from "./e2e-server";

export { expect };

/** Whether the page shows a document of the product, not a stand-in for another site (a client's callback). */
const ofTheProduct = (page: Page) => new URL(page.url()).origin === new URL(BASE_URL).origin;

/** What a page reports: the console's errors (Chromium logs every CSP refusal there too) and exceptions. */
function watchPage(page: Page, problems: string[]): void {
  page.on("console", (message) => {
    if (message.type() === "error" && ofTheProduct(page)) {
      problems.push(`${message.text()} (${message.location().url})`);
    }
  });
  page.on("pageerror", (error) => {
    if (ofTheProduct(page)) problems.push(`${error.message} (${page.url()})`);
  });
}

/**
 * Every `securitypolicyviolation` a document of the context sees goes to the console as an error, with the
 * directive and what it blocked (Chromium's own console line does not always say which element it was).
 */
function reportViolations(): void {
  document.addEventListener("securitypolicyviolation", (event) => {
    console.error(
      `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || "inline"} at ${event.sourceFile}:${event.lineNumber}`,
    );
  });
}

function watchContext(context: BrowserContext, problems: string[]): void {
  void context.addInitScript(reportViolations);
  for (const page of context.pages()) watchPage(page, problems);
  context.on("page", (page) => watchPage(page, problems));
}

interface PageProblems {
  /** Removes and returns the problems so far that match `pattern`: ones the test provoked on purpose. */
  take(pattern: RegExp): string[];
}

export const test = base.extend<{ pageProblems: PageProblems }, { problemLog: string[] }>({
  problemLog: [
    async ({ browser }, use) => {
      const problems: string[] = [];
      for (const context of browser.contexts()) watchContext(context, problems);
      browser.on("context", (context) => watchContext(context, problems));
      await use(problems);
    },
    { scope: "worker", auto: true },
  ],
  pageProblems: [
    async ({ problemLog }, use) => {
      await use({
        take(pattern) {
          const taken = problemLog.filter((problem) => pattern.test(problem));
          const kept = problemLog.filter((problem) => !pattern.test(problem));
          problemLog.splice(0, problemLog.length, ...kept);
          return taken;
        },
      });
      expect(problemLog.splice(0), "console errors, uncaught exceptions and CSP violations").toEqual([]);
    },
    { auto: true },
  ],
});
