/**
 * The Markdown writer (HTML → Markdown) and Markdown → text. Expected strings are what Turndown with
 * the GFM table/strikethrough plugin wrote for the same HTML (checked when the writer replaced it),
 * except that tables kept as HTML lose the plugin's Joplin wrapper div.
 */
import { describe, expect, it } from "vitest";
import { parseDocument } from "@/lib/engine/fetch/extract/dom";
import { htmlToMarkdown, markdownToText } from "@/lib/engine/fetch/extract/markdown";

const BASE = "https://site.example/dir/page";
const md = (html: string) => htmlToMarkdown(html, BASE);

describe("htmlToMarkdown", () => {
  it.each<[string, string, string]>([
    [
      "headings",
      "<h1>Title</h1><p>Intro</p><h3>Sub <em>part</em></h3>",
      "# Title\n\nIntro\n\n### Sub _part_",
    ],
    [
      "emphasis, strikethrough and inline code",
      "<p>Some <strong>bold</strong>, <em>italic</em>, <del>gone</del>, <s>s</s> and <code>a`b</code> text.</p>",
      "Some **bold**, _italic_, ~~gone~~, ~~s~~ and ``a`b`` text.",
    ],
    [
      "lists: bullets, nesting, ordered with a start",
      '<ul><li>one</li><li>two<ul><li>nested</li></ul></li></ul><ol start="3"><li>three</li><li><p>four</p></li></ol>',
      "-   one\n-   two\n    -   nested\n\n3.  three\n4.  four",
    ],
    ["blockquotes", "<blockquote><p>Quoted</p><p>twice</p></blockquote>", "> Quoted\n> \n> twice"],
    ["rules and line breaks", "<p>a</p><hr><p>b<br>c</p>", "a\n\n* * *\n\nb  \nc"],
  ])("%s", (_name, html, expected) => {
    expect(md(html)).toBe(expected);
  });

  it("fences code with its language, lengthening the fence past fences inside; <pre> stays verbatim", () => {
    expect(
      md(
        '<pre><code class="language-rust">fn main() {\n    println!("hi");\n}\n</code></pre><pre>plain  pre\n  text</pre>',
      ),
    ).toBe('```rust\nfn main() {\n    println!("hi");\n}\n```\n\nplain  pre\n  text');
    expect(md("<pre><code>```\nnested fence\n```</code></pre>")).toBe("````\n```\nnested fence\n```\n````");
    expect(md("<pre>run <code>make</code> now</pre>")).toBe("run `make` now");
  });

  it("makes links and images absolute; drops empty, in-page and javascript: links and data: images", () => {
    expect(
      md(
        '<p><a href="/docs">Docs</a> <a href="#top">Top</a> <a href="javascript:void(0)">JS</a> <a href="https://x.example/a b">space</a> <a href="/e"> </a> <a>no href</a></p>',
      ),
    ).toBe("[Docs](https://site.example/docs) Top JS [space](https://x.example/a%20b) no href");
    expect(
      md('<p><img src="/i.png" alt="An [image]"><img src="data:image/png;base64,AAAA" alt="inline"></p>'),
    ).toBe("![An  image](https://site.example/i.png)");
  });

  it("escapes text that Markdown would read as syntax", () => {
    expect(
      md(
        "<p>* star _under_ [brackets] `tick` back\\slash</p><p># not heading</p><p>1. not list</p><p>- not bullet</p><p>&gt; not quote</p>",
      ),
    ).toBe(
      "\\* star \\_under\\_ \\[brackets\\] \\`tick\\` back\\\\slash\n\n\\# not heading\n\n1\\. not list\n\n\\- not bullet\n\n\\> not quote",
    );
  });

  it("collapses whitespace as a browser lays it out, keeping spaces outside inline markup", () => {
    expect(md("<p>  lots   of\n\n  space\t here </p>")).toBe("lots of space here");
    expect(md("<p>foo<b> bar </b>baz <i> </i>qux</p>")).toBe("foo **bar** baz qux");
  });

  it("writes GFM tables: caption, alignment, escaped pipes, colspan, an empty header when there is none", () => {
    expect(
      md(
        '<table><caption>Scores</caption><thead><tr><th>Name</th><th align="right">Score</th><th style="text-align: center">Note</th></tr></thead><tbody><tr><td>Ann</td><td align="right">9</td><td style="text-align: center">a|b</td></tr><tr><td colspan="2">Both</td><td>x</td></tr></tbody></table>',
      ),
    ).toBe(
      "Scores\n\n| Name | Score | Note |\n| --- | ---: | :---: |\n| Ann | 9   | a\\|b |\n| Both |     | x   |",
    );
    expect(md("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>")).toBe(
      "|     |     |\n| --- | --- |\n| a   | b   |\n| c   | d   |",
    );
  });

  it("keeps tables holding block content as compact HTML and single-cell tables as plain text", () => {
    expect(md("<table>\n  <tr>\n    <td><ul><li>item</li></ul></td>\n  </tr>\n</table>")).toBe(
      "<table><tr><td><ul><li>item</li></ul></td></tr></table>",
    );
    expect(md("<table><tr><td><p>Just one cell</p></td></tr></table>")).toBe("Just one cell");
  });

  it("drops scripts, styles, forms, buttons, SVG, noscript and iframes", () => {
    expect(
      md(
        '<p>Keep</p><script>var x = 1;</script><style>p{}</style><form><input><button>Go</button></form><svg><text>icon</text></svg><noscript>enable js</noscript><iframe src="/f"></iframe><p>this</p>',
      ),
    ).toBe("Keep\n\nthis");
  });

  it("converts a DOM node's children without modifying the DOM", () => {
    const document = parseDocument(
      "<html><body><article><p>One  <b>two</b></p> <p>three</p></article></body></html>",
    );
    const article = document.querySelector("article");
    if (article === null) throw new Error("no article");
    const before = article.outerHTML;
    expect(htmlToMarkdown(article, BASE)).toBe("One **two**\n\nthree");
    expect(article.outerHTML).toBe(before);
  });

  it("accepts table cells outside a table (linkedom keeps them; the GFM plugin threw)", () => {
    const body = parseDocument("<html><body><div><td>orphan cell</td></div></body></html>").body;
    if (body === null) throw new Error("no body");
    expect(htmlToMarkdown(body, BASE)).toBe("orphan cell");
  });

  it("converts whole documents and fragments given as strings", () => {
    expect(md("<html><head><title>T</title></head><body><p>Body text</p></body></html>")).toBe("Body text");
    expect(md("Loose <b>fragment</b>")).toBe("Loose **fragment**");
  });
});

describe("markdownToText", () => {
  it("removes markup and keeps the words", () => {
    expect(
      markdownToText(
        "# Title\n\nSome **bold** and `code` with a [link](https://a.example) and ![alt](https://a.example/i.png).\n\n> quoted\n\n```ts\nconst x = 1;\n```",
      ),
    ).toBe("Title\n\nSome bold and code with a link and alt.\nquoted\n\nconst x = 1;");
  });

  it("turns tables into lines of cells, whatever the line endings", () => {
    expect(markdownToText("| a | b |\n| --- | ---: |\r\n| 1 | 2 |\r| 3 | 4 |")).toBe("a  b\n\r\n1  2\r3  4");
  });

  it("skips passes whose markers are absent without changing the result", () => {
    const plain = "Plain prose, no markup at all.\n\n\n\nSecond paragraph.   \nEnd";
    expect(markdownToText(plain)).toBe("Plain prose, no markup at all.\n\nSecond paragraph.\nEnd");
  });
});
