/**
 * Documents through the direct fetcher end to end (runFetch → safeFetch → extraction) against a loopback
 * site reached through the allowlist: DOCX and PPTX by MIME type and as octet-stream, the three formats,
 * max_chars, and a zip bomb refused under the fetch's byte cap.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { ap, docx, numbered, pptx, shape, style, wordTable, wp } from "./documents-fixtures";
import { directEntry, LOOPBACK_ONLY } from "./entries";
import { makePdf } from "./pdf-fixture";
import { type Site, startSite } from "./site-server";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
const SENTENCE = "The committee reviewed the figures and found them consistent with the previous year. ";

const report = docx({
  title: "Annual Report",
  body: [
    wp("Summary", style("Heading1")),
    wp(SENTENCE.repeat(4)),
    wp("Growth in every region", numbered(0)),
    wordTable([
      ["Region", "Revenue"],
      ["North", "41.2 M"],
    ]),
    wp("Outlook", style("Heading1")),
    wp(SENTENCE.repeat(4)),
  ].join(""),
});

const deck = pptx([
  {
    shapes: shape([ap("Why documents")], { type: "title" }) + shape([ap(SENTENCE)], { idx: 1 }),
    notes: "Pause here.",
  },
  { shapes: shape([ap("How")], { type: "title" }) + shape([ap(SENTENCE.repeat(2))], { idx: 1 }) },
]);

let site: Site;
beforeAll(async () => {
  site = await startSite({
    "/files/report.docx": { headers: { "content-type": DOCX }, body: report },
    "/download?id=7": { headers: { "content-type": "application/octet-stream" }, body: deck },
    "/files/bomb.docx": {
      headers: { "content-type": DOCX },
      body: docx({ body: wp("Innocent text.") + " ".repeat(8 * 1024 * 1024) }),
    },
    "/files/scan.pdf": {
      headers: { "content-type": "application/pdf" },
      body: makePdf([[SENTENCE.slice(0, 60)], [SENTENCE.slice(0, 60)], [SENTENCE.slice(0, 60)]], "Scan"),
    },
  });
});
afterAll(async () => {
  await site.close();
});

const fetchDocument = (path: string, extra: Record<string, unknown> = {}, maxBytes?: number) =>
  runFetch({
    input: { url: `${site.url}${path}`, ...extra },
    providers: [directEntry()],
    ssrf: LOOPBACK_ONLY,
    maxBytes,
  });

describe("documents through the direct fetcher", () => {
  it("reads a DOCX as Markdown with its title", async () => {
    const result = await fetchDocument("/files/report.docx");
    expect(result.provider).toBe("direct");
    expect(result.title).toBe("Annual Report");
    expect(result.format).toBe("markdown");
    expect(result.content).toMatch(/^# Summary\n\nThe committee reviewed/);
    expect(result.content).toContain("-   Growth in every region");
    expect(result.content).toContain("| North | 41.2 M |");
    expect(result.metadata).toMatchObject({ content_type: DOCX, status: 200, truncated: false });
  });

  it("reads a PPTX sent as application/octet-stream, slide by slide", async () => {
    const result = await fetchDocument("/download?id=7");
    expect(result.content).toMatch(/^## Slide 1: Why documents\n\n- {3}The committee/);
    expect(result.content).toContain("### Notes\n\nPause here.\n\n## Slide 2: How");
    expect(result.metadata).toMatchObject({ content_type: PPTX, slides: 2 });
  });

  it("renders text and a simple HTML", async () => {
    const text = await fetchDocument("/files/report.docx", { format: "text" });
    expect(text.format).toBe("text");
    expect(text.content).toMatch(/^Summary\n\nThe committee/);
    expect(text.content).toContain("North  41.2 M");
    const html = await fetchDocument("/files/report.docx", { format: "html" });
    expect(html.format).toBe("html");
    expect(html.content).toMatch(/^<h1>Summary<\/h1><p>The committee/);
  });

  it("truncates at max_chars with the marker", async () => {
    const result = await fetchDocument("/files/report.docx", { max_chars: 300 });
    expect(result.metadata.truncated).toBe(true);
    expect(result.content).toMatch(/\[… truncated: \d+ more characters; showing 300 of \d+\]$/);
  });

  it("keeps PDF page markers", async () => {
    const result = await fetchDocument("/files/scan.pdf");
    expect(result.content).toContain("<!-- page 2 -->\n\nThe committee");
    expect(result.metadata).toMatchObject({ pages: 3 });
  });

  it("refuses a zip bomb under the fetch's byte cap", async () => {
    const error = (await fetchDocument("/files/bomb.docx", {}, 1024 * 1024).catch(
      (e: unknown) => e,
    )) as FetchFailed;
    expect(error).toBeInstanceOf(FetchFailed);
    expect(error.providersFailed).toEqual([
      expect.objectContaining({
        provider: "direct",
        reason: "too_large",
        message: `document parts exceed the ${1024 * 1024}-byte decoded size cap (at word/document.xml)`,
      }),
    ]);
  });
});
