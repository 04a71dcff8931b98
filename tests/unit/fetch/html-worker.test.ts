/**
 * A large HTML page converts in a worker thread (lib/engine/fetch/extract/html-page.ts): the server's event
 * loop keeps turning while it does (issue: one fetch of a large page held the server's only thread for
 * seconds, /api/health waiting), and a conversion that outlasts the caller's deadline is abandoned, its
 * worker terminated, instead of running on. Counts and orders of events, not durations.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { documentFromBody } from "@/lib/engine/fetch/extract/document";
import { convertsInline, INLINE_HTML_CHARS, INLINE_HTML_TAGS } from "@/lib/engine/fetch/extract/html-page";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { article } from "@/tests/reliability/support/article";
import { ticksDuring } from "@/tests/support/event-loop-ticks";
import { forumThread, hostilePage } from "@/tests/support/large-pages";
import { directEntry, LOOPBACK_ONLY } from "./entries";
import { type Site, startSite } from "./site-server";

const URL_ = "https://forum.example/t/release-day";
/**
 * Within the extraction's caps yet slow: 90 levels of nesting over 58,000 elements, which Readability scores
 * ancestor by ancestor. It converted in 45 s on one core of a loaded 2-core machine (several idle).
 */
const SLOW_PAGE = hostilePage(45, 29_000);
/** The first conversion also builds the worker's bundle from source (about a second) and starts cold. */
const WORKER_TEST_TIMEOUT_MS = 60_000;

const asHtml = (page: string, signal?: AbortSignal) =>
  documentFromBody({ body: Buffer.from(page), contentType: "text/html; charset=utf-8", url: URL_, signal });
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => ({ error: undefined }),
    (error: unknown) => ({ error }),
  );

describe("HTML conversion in a worker thread", () => {
  it("converts a 3 MB page while the event loop keeps turning", {
    timeout: WORKER_TEST_TIMEOUT_MS,
  }, async () => {
    const page = forumThread(3 * 1024 * 1024);
    const { result: document, ticks } = await ticksDuring(() => asHtml(page));
    expect(document.metadata.html_cut?.total_chars).toBe(page.length);
    expect(document.markdown).toContain("Post 100: upgraded the staging cluster");
    expect(document.html).toContain('id="post-100"');
    // The conversion takes a second or more; inline, no timer could fire during it (0 ticks).
    expect(ticks).toBeGreaterThan(10);
  });

  it("converts a small page inline, as before", async () => {
    const page = forumThread(16 * 1024);
    expect(page.length).toBeLessThan(INLINE_HTML_CHARS);
    const document = await asHtml(page);
    expect(document.markdown).toContain("Post 1: upgraded the staging cluster");
  });

  it("converts a large page of few elements inline, and a page of many elements in the worker", () => {
    // A 500 KB article (about 5,000 tags) is mostly text: inline it converts in tens of milliseconds, less
    // than a worker takes to start. A forum thread of the same size has ten times the elements.
    const text = article(500 * 1024);
    expect(text.length).toBeGreaterThan(INLINE_HTML_CHARS);
    expect(convertsInline(text)).toBe(true);
    expect(convertsInline(forumThread(500 * 1024))).toBe(false);
    expect(
      convertsInline(`<p>${"<b>x</b>".repeat(INLINE_HTML_TAGS)}</p>`.padEnd(INLINE_HTML_CHARS + 1)),
    ).toBe(false);
  });

  it("abandons a conversion as soon as the step's signal aborts", {
    timeout: WORKER_TEST_TIMEOUT_MS,
  }, async () => {
    // Beside it, the same conversion with no abort yet: the aborted one settles while that one still runs
    // (then it is aborted too). A conversion that ran on to its end before looking at its signal (on the
    // main thread, between its steps) would settle after it, or never let the timer abort it at all.
    const signal = AbortSignal.timeout(2_000);
    const control = new AbortController();
    const settled: string[] = [];
    const unaborted = failure(asHtml(SLOW_PAGE, control.signal)).finally(() => settled.push("unaborted"));
    const aborted = failure(asHtml(SLOW_PAGE, signal)).finally(() => settled.push("aborted"));
    expect((await aborted).error).toBe(signal.reason);
    expect(settled).toEqual(["aborted"]);
    control.abort(new Error("done"));
    expect((await unaborted).error).toBe(control.signal.reason);
    expect(settled).toEqual(["aborted", "unaborted"]);
  });
});

describe("a fetch whose page converts past its deadline", () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite({ "/slow": { body: SLOW_PAGE } });
  });
  afterAll(async () => {
    await site.close();
  });

  it("fails as a timeout at timeout_ms", { timeout: WORKER_TEST_TIMEOUT_MS }, async () => {
    const error = await runFetch({
      input: { url: `${site.url}/slow`, timeout_ms: 2_000 },
      providers: [directEntry()],
      ssrf: LOOPBACK_ONLY,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchFailed);
    expect((error as FetchFailed).providersFailed[0]).toMatchObject({
      provider: "direct",
      reason: "timeout",
    });
  });
});
