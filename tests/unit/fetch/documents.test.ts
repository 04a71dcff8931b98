/**
 * Word, PowerPoint and PDF extraction (documentFromBody), on packages built in the test: headings,
 * lists, tables, links, slides in presentation order with notes, PDF page markers, and detection of
 * documents sent as application/octet-stream.
 */
import { describe, expect, it } from "vitest";
import { UnsupportedContent } from "@/lib/engine/fetch/errors";
import { documentFromBody } from "@/lib/engine/fetch/extract/document";
import { markdownToText } from "@/lib/engine/fetch/extract/markdown";
import {
  ap,
  docx,
  numbered,
  pptx,
  shape,
  slideTable,
  style,
  wordTable,
  wp,
  zipParts,
} from "./documents-fixtures";
import { makePdf } from "./pdf-fixture";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const PPTX = "application/vnd.openxmlformats-officedocument.presentationml.presentation";

const extract = (body: Buffer, contentType: string, url = "https://files.example/doc") =>
  documentFromBody({ body, contentType, url });

const report = docx({
  title: "Quarterly Report",
  // German Word names its heading styles "berschrift…" by id; the name stays "heading N".
  styles:
    '<w:style w:type="paragraph" w:styleId="berschrift2"><w:name w:val="heading 2"/></w:style>' +
    '<w:style w:type="paragraph" w:styleId="Aufzaehlung"><w:name w:val="List Bullet"/><w:pPr><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr></w:style>',
  links: [
    { id: "rIdSpec", type: "hyperlink", target: "https://example.com/spec?a=1&amp;b=2", external: true },
  ],
  body: [
    wp("Quarterly Report", style("Title")),
    wp(["Revenue grew ", "by 12 % ", "in Q3 &lt;preliminary&gt;."]),
    wp("Results", style("Heading1")),
    wp("Regional detail", style("berschrift2")),
    wp("Outline heading", '<w:outlineLvl w:val="2"/>'),
    wp("First point", numbered(0)),
    wp("Nested point", numbered(1)),
    wp("Second point", numbered(0)),
    wp("Styled bullet", style("Aufzaehlung")),
    wp("Numbering switched off", '<w:numPr><w:numId w:val="0"/></w:numPr>'),
    wordTable([
      ["Region", "Revenue"],
      ["North", "41.2 M"],
      ["South | East", "12 M"],
    ]),
    '<w:p><w:r><w:t xml:space="preserve">See </w:t></w:r><w:hyperlink r:id="rIdSpec"><w:r><w:t>the spec</w:t></w:r></w:hyperlink>' +
      "<w:r><w:t>.</w:t></w:r><w:del><w:r><w:delText> Deleted words.</w:delText></w:r></w:del>" +
      '<w:ins><w:r><w:t xml:space="preserve"> Inserted words.</w:t></w:r></w:ins>' +
      '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> PAGE </w:instrText></w:r>' +
      '<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t xml:space="preserve"> Page 4</w:t></w:r>' +
      '<w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>',
  ].join(""),
});

describe("DOCX", () => {
  it("writes headings, nested lists, tables and links as Markdown", async () => {
    const document = await extract(report, DOCX);
    expect(document.markdown).toBe(
      [
        "# Quarterly Report",
        "Revenue grew by 12 % in Q3 <preliminary\\>.",
        "# Results",
        "## Regional detail",
        "### Outline heading",
        "-   First point\n    -   Nested point\n-   Second point\n-   Styled bullet",
        "Numbering switched off",
        "| Region | Revenue |\n| --- | --- |\n| North | 41.2 M |\n| South \\| East | 12 M |",
        "See [the spec](https://example.com/spec?a=1&b=2). Inserted words. Page 4",
      ].join("\n\n"),
    );
  });

  it("takes the title and author from the document properties", async () => {
    const document = await extract(report, DOCX);
    expect(document.title).toBe("Quarterly Report");
    expect(document.metadata).toEqual({
      content_type: DOCX,
      title: "Quarterly Report",
      byline: "Ada Lovelace",
    });
  });

  it("falls back to the first heading for the title", async () => {
    const untitled = docx({ body: wp("Meeting notes", style("Heading1")) + wp("Attendees: all.") });
    expect((await extract(untitled, DOCX)).title).toBe("Meeting notes");
  });

  it("keeps a simple HTML rendering for format=html", async () => {
    const { html } = await extract(report, DOCX);
    expect(html).toContain("<h2>Regional detail</h2>");
    expect(html).toContain("<ul><li>First point<ul><li>Nested point</li></ul></li>");
    expect(html).toContain("<tr><th><p>Region</p></th><th><p>Revenue</p></th></tr>");
    expect(html).toContain('<a href="https://example.com/spec?a=1&amp;b=2">the spec</a>');
  });

  it("links only to web and mail addresses", async () => {
    const hostile = docx({
      links: [{ id: "rIdJs", type: "hyperlink", target: "javascript:alert(1)", external: true }],
      body: '<w:p><w:hyperlink r:id="rIdJs"><w:r><w:t>click me</w:t></w:r></w:hyperlink></w:p>',
    });
    const { markdown, html } = await extract(hostile, DOCX);
    expect(markdown).toBe("click me");
    expect(html).not.toContain("javascript:");
  });

  it("keeps table cells plain and spans merged columns", async () => {
    const cell = (content: string, properties = "") =>
      `<w:tc><w:tcPr>${properties}</w:tcPr>${content}</w:tc>`;
    const merged = docx({
      body:
        "<w:tbl>" +
        `<w:tr>${cell(wp("Heading cell", style("Heading1")), '<w:gridSpan w:val="2"/>')}</w:tr>` +
        `<w:tr>${cell(wp("Item", numbered(0)), '<w:vMerge w:val="restart"/>')}${cell(wp("B"))}</w:tr>` +
        `<w:tr>${cell(wp("hidden by the merge"), "<w:vMerge/>")}${cell(wp("C"))}</w:tr>` +
        "</w:tbl>",
    });
    const { markdown } = await extract(merged, DOCX);
    expect(markdown).toContain("| Heading cell |     |");
    expect(markdown).toContain("| Item | B   |");
    expect(markdown).not.toContain("hidden by the merge");
  });
});

const deck = pptx([
  {
    shapes: [
      shape([ap("Roadmap")], { type: "title" }),
      // A content placeholder (no type: "obj") has the master's bullets.
      shape([ap("Phase one"), ap("Detail", { attributes: 'lvl="1"' }), ap("Phase two")], { idx: 1 }),
      shape([ap("Free text box"), ap("Explicit bullet", { children: '<a:buChar char="•"/>' })]),
      slideTable([
        ["Quarter", "Goal"],
        ["Q1", "Launch"],
      ]),
      shape([ap("7")], { type: "sldNum", idx: 12 }),
    ].join(""),
    notes: "Remember to mention the budget.",
  },
  {
    shapes: [
      shape([ap("Summary")], { type: "ctrTitle" }),
      shape([ap("Thanks", undefined, '<a:hlinkClick r:id="rIdLink"/>')], { type: "subTitle", idx: 1 }),
      `<p:grpSp><p:nvGrpSpPr/><p:grpSpPr/>${shape([ap("Grouped text")])}</p:grpSp>`,
    ].join(""),
    links: [{ id: "rIdLink", type: "hyperlink", target: "https://example.com/", external: true }],
  },
]);

describe("PPTX", () => {
  it("writes slides in presentation order with titles, bullets, tables and notes", async () => {
    const document = await extract(deck, PPTX);
    expect(document.markdown).toBe(
      [
        "## Slide 1: Roadmap",
        "-   Phase one\n    -   Detail\n-   Phase two",
        "Free text box",
        "-   Explicit bullet",
        "| Quarter | Goal |\n| --- | --- |\n| Q1  | Launch |",
        "### Notes",
        "Remember to mention the budget.",
        "## Slide 2: Summary",
        "[Thanks](https://example.com/)",
        "Grouped text",
      ].join("\n\n"),
    );
  });

  it("counts slides and takes the first slide title when the properties have none", async () => {
    const document = await extract(deck, PPTX);
    expect(document.metadata).toEqual({ content_type: PPTX, title: "Roadmap", slides: 2 });
  });

  it("numbers an untitled slide without a title", async () => {
    const untitled = pptx([{ shapes: shape([ap("Only a text box")]) }]);
    expect((await extract(untitled, PPTX)).markdown).toBe("## Slide 1\n\nOnly a text box");
  });
});

describe("detection", () => {
  it.each([
    ["a DOCX", report, "# Quarterly Report"],
    ["a PPTX", deck, "## Slide 1: Roadmap"],
  ])("reads %s sent as application/octet-stream by its bytes", async (_name, body, start) => {
    const document = await extract(body, "application/octet-stream");
    expect(document.markdown.startsWith(start)).toBe(true);
  });

  it("reads a document sent as application/zip or without a type", async () => {
    expect((await extract(report, "application/zip")).metadata.content_type).toBe(DOCX);
    expect((await extract(deck, "")).metadata.content_type).toBe(PPTX);
  });

  it("refuses a ZIP that is not a Word or PowerPoint document", async () => {
    const archive = zipParts({ "notes.txt": "just a file" });
    const error = await extract(archive, "application/zip").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedContent);
    expect((error as Error).message).toBe(
      "unsupported content type: application/zip (not a Word or PowerPoint document)",
    );
  });

  it("refuses a spreadsheet by its main part's type", async () => {
    const workbook = zipParts({
      "[Content_Types].xml":
        '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
      "_rels/.rels":
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      "xl/workbook.xml": "<workbook/>",
    });
    await expect(extract(workbook, "application/octet-stream")).rejects.toThrow(
      "unsupported content type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet (not a Word or PowerPoint document)",
    );
  });

  it("still refuses other binary types", async () => {
    await expect(extract(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), "image/png")).rejects.toThrow(
      "unsupported content type: image/png",
    );
  });
});

describe("PDF page boundaries", () => {
  const pdf = makePdf([["First page text."], [], ["Third page text."]], "Three pages");

  it("marks where each page starts, empty pages included", async () => {
    const document = await extract(pdf, "application/pdf");
    expect(document.markdown).toBe(
      "<!-- page 1 -->\n\nFirst page text.\n\n<!-- page 2 -->\n\n<!-- page 3 -->\n\nThird page text.",
    );
    expect(document.metadata).toMatchObject({ pages: 3, title: "Three pages" });
  });

  it("keeps the markers in the text format", async () => {
    const document = await extract(pdf, "application/octet-stream");
    expect(markdownToText(document.markdown)).toContain("<!-- page 3 -->\n\nThird page text.");
  });

  it("gives no content for a PDF without text, so the checks can fail it over", async () => {
    const scan = makePdf([[], []], "Scan");
    expect((await extract(scan, "application/pdf")).markdown).toBe("");
  });
});
