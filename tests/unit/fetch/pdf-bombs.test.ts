/**
 * PDF bombs (security issue #14): pdf.js parses in a worker thread under caps, so a 10 KB file that
 * inflates to a gigabyte, a thousand pages, endless text or a slow parse fails as "too_large" or is cut
 * short within seconds, while this thread's event loop keeps turning and the process's memory stays far
 * below what the bomb decodes to. Parsed on the main thread with no caps (the code before), the gigabyte
 * bomb blocks the loop for seconds and takes well over a gigabyte.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { documentFromBody } from "@/lib/engine/fetch/extract/document";
import { documentFromPdf } from "@/lib/engine/fetch/extract/pdf";
import { ProviderError } from "@/lib/engine/shared/errors";
import { peakRssDuring, readRss } from "@/tests/reliability/support/process-memory";
import { gigabytePdfBomb, makeDeflatedPdf, makePdf } from "./pdf-fixture";

const TEXT = "BT /F1 12 Tf 72 720 Td (Hello bomb) Tj ET\n";

/** The same page `pages` times. */
const manyPages = (pages: number) => makeDeflatedPdf({ content: Buffer.from(TEXT), pages });

const asPdf = (body: Buffer, signal?: AbortSignal) =>
  documentFromBody({ body, contentType: "application/pdf", url: "https://files.example/bomb.pdf", signal });

async function failure(work: Promise<unknown>) {
  const started = performance.now();
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

/** Runs `work` while measuring this thread's worst event-loop delay (ms). */
async function withLoopLag<T>(work: () => Promise<T>): Promise<{ result: T; maxLagMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  try {
    const result = await work();
    return { result, maxLagMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}

describe("PDF bombs", () => {
  it("fails a stream that inflates to 1 GiB as too_large within seconds, the loop turning and memory flat", async () => {
    const bomb = gigabytePdfBomb();
    expect(bomb.length).toBeLessThan(64 * 1024);
    const before = readRss(process.pid).rssMb;
    const { result, peakMb } = await peakRssDuring(process.pid, () =>
      withLoopLag(() => failure(asPdf(bomb))),
    );
    const { error, ms } = result.result;
    expect(error).toBeInstanceOf(ProviderError);
    // The decode cap's refusal, not the 15 s time cap's ("document parsing stopped after …"): the worker
    // stopped the bomb as soon as its streams passed 256 MiB.
    expect(error).toMatchObject({ reason: "too_large", message: expect.stringMatching(/PDF too large/) });
    // The loop kept turning: its longest stall is a small share of the parse (on the main thread the inflate
    // blocked it for nearly all of it). A share, not milliseconds: a loaded machine slows both alike.
    expect(result.maxLagMs).toBeLessThan(ms / 4);
    // The worker's caps hold its decoded streams to 256 MiB in all; the bomb itself is 1 GiB.
    expect(peakMb - before).toBeLessThan(450);
  }, 30_000);

  it("fails a page whose text fills the worker's heap as too_large, and the process lives on", async () => {
    const content = Buffer.from(`BT /F1 12 Tf ${"1 0 0 1 72 720 Tm (ab) Tj\n".repeat(400_000)} ET`);
    const { error } = await failure(
      documentFromPdf(makeDeflatedPdf({ content }), { limits: { heapMb: 16 } }),
    );
    expect(error).toMatchObject({
      reason: "too_large",
      message: expect.stringMatching(/more than 16 MiB of memory/),
    });
    const normal = await asPdf(makePdf([["Still extracting."]], "After"));
    expect(normal.markdown).toContain("Still extracting.");
  }, 30_000);

  it("stops a parse that outlasts its time cap", async () => {
    // Uncapped, this parse reads its first 500 pages and succeeds (seconds on 2 cores); only the time cap's
    // timer fails it, with this message.
    const { error } = await failure(documentFromPdf(manyPages(100_000), { limits: { timeMs: 1_000 } }));
    expect(error).toMatchObject({ reason: "too_large", message: expect.stringMatching(/stopped after 1 s/) });
  });

  it("abandons the parse as soon as the fetch's signal aborts", async () => {
    // Beside it, the same parse with no abort yet: the aborted one settles while that one still runs (then
    // it is aborted too). A parse that ran on to its end before looking at its signal would settle after it.
    const signal = AbortSignal.timeout(300);
    const control = new AbortController();
    const settled: string[] = [];
    const unaborted = failure(asPdf(manyPages(100_000), control.signal)).finally(() =>
      settled.push("unaborted"),
    );
    const aborted = failure(asPdf(manyPages(100_000), signal)).finally(() => settled.push("aborted"));
    const { error } = await aborted;
    expect(error).toBe(signal.reason);
    expect(settled).toEqual(["aborted"]);
    control.abort(new Error("done"));
    expect((await unaborted).error).toBe(control.signal.reason);
    expect(settled).toEqual(["aborted", "unaborted"]);
  });
});

describe("PDF caps", () => {
  it("reads the first 500 pages and says where it stopped; metadata counts them all", async () => {
    const document = await asPdf(manyPages(1_000));
    expect(document.metadata.pages).toBe(1_000);
    expect(document.markdown).toContain("<!-- page 500 -->\n\nHello bomb");
    expect(document.markdown).not.toContain("<!-- page 501 -->");
    expect(document.markdown.endsWith("<!-- stopped after page 500 of 1000 (page limit) -->")).toBe(true);
  });

  it("cuts the text at the character cap and says in which page", async () => {
    const pdf = makePdf([["First page text."], ["Second page text."], ["Third page text."]], "Long");
    const document = await documentFromPdf(pdf, { limits: { maxChars: 24 } });
    expect(document.markdown).toBe(
      "<!-- page 1 -->\n\nFirst page text.\n\n<!-- page 2 -->\n\nSecond p\n\n" +
        "<!-- stopped in page 2 of 3 after 24 characters -->",
    );
    expect(document.metadata).toMatchObject({ pages: 3, title: "Long" });
  });

  it("refuses a file pdf.js cannot read as an invalid response", async () => {
    const { error } = await failure(asPdf(Buffer.from("%PDF-1.7\nnot a document at all")));
    expect(error).toMatchObject({ reason: "invalid_response", message: expect.stringMatching(/unreadable/) });
  });

  it("parses more documents than the concurrent-parse limit, each in turn", async () => {
    const documents = await Promise.all(
      Array.from({ length: 5 }, (_, i) => asPdf(makePdf([[`Document ${i}.`]], `Doc ${i}`))),
    );
    expect(documents.map((d) => d.title)).toEqual(["Doc 0", "Doc 1", "Doc 2", "Doc 3", "Doc 4"]);
  });
});
