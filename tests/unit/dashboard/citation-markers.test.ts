import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "@/components/dashboard/playground/markdown";
import {
  bySourceNumber,
  type CitationLookup,
  type CitationPiece,
  numberedFromOne,
  splitCitations,
} from "@/lib/dashboard/citation-markers";

const TOKIO = { title: "Tokio", url: "https://tokio.rs/" };
const BLOG = {
  title: "Making the Tokio scheduler 10x faster",
  url: "https://tokio.rs/blog/2019-10-scheduler",
};
const CITATIONS = numberedFromOne([TOKIO, BLOG]);

/** The pieces as a string: markers as «n→url». */
const shown = (pieces: readonly CitationPiece[]) =>
  pieces.map((piece) => ("text" in piece ? piece.text : `«${piece.n}→${piece.page.url}»`)).join("");

describe("splitCitations, per provider's style", () => {
  it("[n]: Perplexity, Brave (its citation tags, as the adapter writes them), grounded models, reports", () => {
    expect(shown(splitCitations("Tokio is used most [1]. It steals work [2][1].", CITATIONS))).toBe(
      "Tokio is used most«1→https://tokio.rs/». It steals work«2→https://tokio.rs/blog/2019-10-scheduler»«1→https://tokio.rs/».",
    );
  });

  it("【n】: Kagi FastGPT, with or without a †source suffix", () => {
    expect(shown(splitCitations("Tokio is used most【1】 and steals work 【2†source】.", CITATIONS))).toBe(
      "Tokio is used most«1→https://tokio.rs/» and steals work«2→https://tokio.rs/blog/2019-10-scheduler».",
    );
  });

  it("lists [1, 2] and footnote references [^2], which models write unprompted", () => {
    expect(shown(splitCitations("Both [1, 2]; one [^2].", CITATIONS))).toBe(
      "Both«1→https://tokio.rs/»«2→https://tokio.rs/blog/2019-10-scheduler»; one«2→https://tokio.rs/blog/2019-10-scheduler».",
    );
  });

  it("Exa and Tavily: no markers, the text as it is", () => {
    expect(splitCitations("Tokio is the most used runtime.", CITATIONS)).toEqual([
      { text: "Tokio is the most used runtime." },
    ]);
  });

  it("leaves markers that cite nothing as written, and links the numbers of a list that do", () => {
    expect(splitCitations("A footnote [7], 【9】 and [0].", CITATIONS)).toEqual([
      { text: "A footnote [7], 【9】 and [0]." },
    ]);
    expect(shown(splitCitations("Mixed [1, 7].", CITATIONS))).toBe("Mixed«1→https://tokio.rs/»[7].");
  });

  it("is no marker where brackets hold more than numbers or start a link", () => {
    expect(splitCitations("array[1](x) and [1a] and [ 1 ]", CITATIONS)).toEqual([
      { text: "array[1](x) and [1a] and [ 1 ]" },
    ]);
  });

  it("looks a report's markers up by source number, not position", () => {
    const lookup = bySourceNumber([{ n: 2, ...BLOG }]);
    expect(shown(splitCitations("Claim [2], not [1].", lookup))).toBe(
      "Claim«2→https://tokio.rs/blog/2019-10-scheduler», not [1].",
    );
  });
});

describe("Markdown with citations", () => {
  // Markdown holds no state: called as a function, it is the element to render.
  const render = (markdown: string, citations?: CitationLookup) =>
    renderToStaticMarkup(Markdown({ children: markdown, citations }));

  it("renders each marker as a superscript link, titled with the page and named for screen readers", () => {
    const html = render("Tokio is used most【1】.", CITATIONS);
    expect(html).toContain(
      '<sup><a href="https://tokio.rs/" title="Tokio" aria-label="Source 1: Tokio" data-citation="1" target="_blank" rel="noreferrer noopener nofollow">1</a></sup>',
    );
    expect(html).not.toContain("【");
  });

  it("leaves code and existing links alone", () => {
    const html = render(
      "Index `a[1]` and [see [2]](https://example.com/) then [2].\n\n```\nb[1]\n```",
      CITATIONS,
    );
    expect(html).toContain("<code>a[1]</code>");
    expect(html).toContain("b[1]");
    expect(html).toContain('href="https://example.com/"');
    expect(html.match(/<sup>/g)).toHaveLength(1);
    expect(html).toContain('data-citation="2"');
  });

  it("renders markers as text without citations", () => {
    const html = render("Claim [1].");
    expect(html).toContain("<p>Claim [1].</p>");
    expect(html).not.toContain("<sup>");
  });
});
