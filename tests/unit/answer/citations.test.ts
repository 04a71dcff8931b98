import { describe, expect, it } from "vitest";
import {
  appendCitations,
  citeNumbered,
  markdownLinkCitations,
  numberFromOne,
  toCitation,
} from "@/lib/providers/answer/citations";

const sources = numberFromOne([
  { title: "One", url: "https://one.example/a" },
  { title: "Two", url: "https://two.example/b" },
  { title: "Three", url: "https://three.example/c?utm_source=x" },
]);

describe("citeNumbered", () => {
  it("keeps only cited sources, in order of first citation, and renumbers the markers", () => {
    const result = citeNumbered("Fact A [3]. Fact B [1][3]. Fact C [1, 3].", sources);
    expect(result.citations).toEqual([
      { title: "Three", url: "https://three.example/c" },
      { title: "One", url: "https://one.example/a" },
    ]);
    expect(result.answer).toBe("Fact A [1]. Fact B [2][1]. Fact C [2][1].");
  });

  it("keeps every source, in the provider's order, when the answer cites none", () => {
    const result = citeNumbered("No markers here.", sources);
    expect(result.answer).toBe("No markers here.");
    expect(result.citations.map((c) => c.title)).toEqual(["One", "Two", "Three"]);
  });

  it("drops markers of unknown sources and merges sources with the same normalised URL", () => {
    const duplicated = numberFromOne([
      { title: "A", url: "https://www.a.example/page/" },
      { title: "A again", url: "http://a.example/page#top" },
    ]);
    const result = citeNumbered("X [2]. Y [1]. Z [7].", duplicated);
    expect(result.citations).toEqual([{ title: "A again", url: "http://a.example/page" }]);
    expect(result.answer).toBe("X [1]. Y [1]. Z.");
  });

  it("leaves code, Markdown links and reference definitions alone", () => {
    const text =
      "Use `a[1]` or\n```\nb[2]\n```\nsee [2](https://x.example) and [1] with\n[3]: https://y.example";
    const result = citeNumbered(text, sources);
    expect(result.citations.map((c) => c.title)).toEqual(["One"]);
    expect(result.answer).toBe(
      "Use `a[1]` or\n```\nb[2]\n```\nsee [2](https://x.example) and [1] with\n[3]: https://y.example",
    );
  });

  it("skips sources without an http(s) URL", () => {
    const result = citeNumbered(
      "A [1] B [2]",
      numberFromOne([{ url: "ftp://x" }, { url: "https://ok.example" }]),
    );
    expect(result.citations).toEqual([{ title: "ok.example", url: "https://ok.example/" }]);
    expect(result.answer).toBe("A B [1]");
  });
});

describe("markdown links and appending", () => {
  it("reads Markdown links outside code as titled citations", () => {
    expect(
      markdownLinkCitations("See [the docs](https://d.example/x) and `[no](https://n.example)`."),
    ).toEqual([{ title: "the docs", url: "https://d.example/x" }]);
  });

  it("appends only new, usable citations and keeps the base order", () => {
    const base = [{ title: "One", url: "https://one.example/a" }];
    expect(
      appendCitations(base, [
        { url: "https://one.example/a/" },
        { url: "javascript:alert(1)" },
        { title: "<b>Bold</b> &amp; new", url: "https://new.example" },
      ]),
    ).toEqual([...base, { title: "Bold & new", url: "https://new.example/" }]);
  });

  it("titles a citation by its host when the provider gives none", () => {
    expect(toCitation({ url: "https://www.host.example/p", title: "  " })).toEqual({
      title: "host.example",
      url: "https://www.host.example/p",
    });
  });
});
