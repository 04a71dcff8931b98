/**
 * A large or hostile HTML page costs its own request a bounded amount (issue: a fetch of a 3 MB page held
 * the server at 100 % CPU for minutes). Extraction reads the first MAX_HTML_CHARS of the HTML and says so,
 * reads elements nested past MAX_DOM_DEPTH as their text (Readability's cost grew with the cube of the depth
 * and 500 levels overflowed the stack), and leaves Readability out on a page of more than
 * MAX_ARTICLE_ELEMENTS elements. The larger pages convert in a worker thread (html-page.ts) under its heap cap.
 * Durations are the bench's (`large-pages`); the bounds here are generous.
 */
import { describe, expect, it } from "vitest";
import { MAX_DOM_DEPTH } from "@/lib/engine/fetch/extract/dom";
import { MAX_HTML_CHARS } from "@/lib/engine/fetch/extract/html";
import { documentFromHtmlPage } from "@/lib/engine/fetch/extract/html-page";
import { forumThread, hostilePage } from "@/tests/support/large-pages";

const URL_ = "https://forum.example/t/release-day";
/** A page of MAX_HTML_CHARS converts in a second or two on an idle core; a loaded 2-core machine took 14 s. */
const LARGE_PAGE_TIMEOUT_MS = 90_000;

describe("large and hostile HTML pages", () => {
  it("converts the first MAX_HTML_CHARS of a 3 MB forum thread, saying how much it left out", {
    timeout: LARGE_PAGE_TIMEOUT_MS,
  }, async () => {
    const page = forumThread(3 * 1024 * 1024);
    const document = await documentFromHtmlPage(page, URL_);
    expect(document.metadata.html_cut).toEqual({ kept_chars: expect.any(Number), total_chars: page.length });
    const kept = document.metadata.html_cut?.kept_chars ?? 0;
    expect(kept).toBeLessThanOrEqual(MAX_HTML_CHARS);
    expect(kept).toBeGreaterThan(MAX_HTML_CHARS - 2_000);
    // The cut falls before a tag: the thread reads on to the last post kept, and no further.
    const lastKept = Number([...page.slice(0, kept).matchAll(/id="post-(\d+)"/g)].at(-1)?.[1]);
    expect(document.markdown).toContain(`Post ${lastKept - 1}: upgraded the staging cluster`);
    expect(document.markdown).not.toContain(`Post ${lastKept + 1}:`);
  });

  it("reads a page nested 5,000 levels deep, its text below the depth limit kept as text", async () => {
    const document = await documentFromHtmlPage(hostilePage(5_000, 200), URL_);
    expect(MAX_DOM_DEPTH).toBeLessThan(5_000);
    expect(document.markdown).toContain("x y");
  });

  it("converts a page of 100,000 paragraphs of links without Readability's passes, cut at MAX_HTML_CHARS", {
    timeout: LARGE_PAGE_TIMEOUT_MS,
  }, async () => {
    const page = hostilePage(0, 100_000);
    const document = await documentFromHtmlPage(page, URL_);
    expect(document.metadata.html_cut?.total_chars).toBe(page.length);
    // Each paragraph's text, link made absolute.
    expect(document.markdown).toContain("x [y](https://forum.example/a)");
  });
});
