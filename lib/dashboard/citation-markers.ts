/**
 * Citation markers in answers and research reports, each a link to the page it cites. One parser for every
 * style the text reaches the dashboard in:
 * - `[n]`: Perplexity, Brave (its `<citation>` tags, which the adapter turns into `[n]`), the grounded models
 *   (Gemini, OpenAI-compatible ones: prompted for `[n]`), research reports;
 * - lists `[1, 3]` and footnote references `[^2]`, which models write unprompted;
 * - Kagi FastGPT's `【n】` (lenticular brackets; the adapter turns them into `[n]`, answers cached before it
 *   did keep them), with or without a `†source` suffix.
 * Exa and Tavily put no marker in the text: their citations are only listed under the answer. A number
 * that cites nothing stays text as written. Client components import this at run time.
 */

/** A page a marker can point at. */
export interface CitedPage {
  url: string;
  title: string;
}

/** The page marker `n` cites, if any: answers number from 1 into their citations, reports by source n. */
export type CitationLookup = (n: number) => CitedPage | undefined;

export type CitationPiece = { text: string } | { n: number; page: CitedPage };

/** Blanks before a marker (dropped with a linked one), then `[n]`, `[^n]`, `[n, m]` or `【n】` / `【n†…】`. */
const MARKER = /([ \t]*)(?:\[\^?(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()|【(\d{1,3})(?:†[^】\n]*)?】)/g;

/** `text` as plain runs and markers whose number cites a page, in order. */
export function splitCitations(text: string, lookup: CitationLookup): CitationPiece[] {
  const pieces: CitationPiece[] = [];
  const addText = (value: string) => {
    if (value === "") return;
    const previous = pieces.at(-1);
    if (previous !== undefined && "text" in previous) previous.text += value;
    else pieces.push({ text: value });
  };
  let from = 0;
  for (const match of text.matchAll(MARKER)) {
    const numbers = (match[2] ?? match[3] ?? "").split(",").map((n) => Number(n.trim()));
    const cited = numbers.map((n) => ({ n, page: lookup(n) }));
    if (cited.every(({ page }) => page === undefined)) continue;
    addText(text.slice(from, match.index));
    for (const { n, page } of cited) {
      if (page === undefined) addText(`[${n}]`);
      else pieces.push({ n, page });
    }
    from = match.index + match[0].length;
  }
  addText(text.slice(from));
  return pieces;
}

/** The Markdown tree (mdast) as this plugin reads and writes it. */
interface MarkdownNode {
  type: string;
  value?: string;
  url?: string;
  title?: string | null;
  children?: MarkdownNode[];
  data?: { hName?: string; hProperties?: Record<string, unknown> };
}

/** Where a marker in the text is not one: code, and text that already is a link. */
const LEFT_ALONE: ReadonlySet<string> = new Set([
  "code",
  "inlineCode",
  "link",
  "linkReference",
  "definition",
]);

/** A linked marker: the number in superscript, the page's title on hover and for screen readers. */
const markerNode = (n: number, page: CitedPage): MarkdownNode => {
  const title = page.title || page.url;
  return {
    type: "citation",
    data: { hName: "sup" },
    children: [
      {
        type: "link",
        url: page.url,
        title,
        data: { hProperties: { ariaLabel: `Source ${n}: ${title}`, dataCitation: n } },
        children: [{ type: "text", value: String(n) }],
      },
    ],
  };
};

function linkMarkers(node: MarkdownNode, lookup: CitationLookup): void {
  if (node.children === undefined || LEFT_ALONE.has(node.type)) return;
  node.children = node.children.flatMap((child) => {
    if (child.type !== "text" || !child.value) {
      linkMarkers(child, lookup);
      return [child];
    }
    return splitCitations(child.value, lookup).map((piece) =>
      "text" in piece ? { type: "text", value: piece.text } : markerNode(piece.n, piece.page),
    );
  });
}

/** A remark plugin: every marker in the Markdown's text that cites a page becomes a link to it. */
export const remarkCitations = (lookup: CitationLookup) => () => (tree: MarkdownNode) =>
  linkMarkers(tree, lookup);

/** An answer's lookup: `[n]` is its citations[n - 1]. */
export const numberedFromOne =
  (citations: readonly CitedPage[]): CitationLookup =>
  (n) =>
    citations[n - 1];

/** A research report's lookup: `[n]` is the source numbered n. */
export const bySourceNumber = (sources: ReadonlyArray<CitedPage & { n: number }>): CitationLookup => {
  const byN = new Map(sources.map((source) => [source.n, source]));
  return (n) => byN.get(n);
};
