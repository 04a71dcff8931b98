/** The failover rules: one test per pattern, and ordinary articles that mention the same words pass. */
import { describe, expect, it } from "vitest";
import { checkContent } from "@/lib/engine/fetch/content-checks";
import { documentFromHtml } from "@/lib/engine/fetch/extract/html";
import type { FetchedDocument } from "@/lib/engine/fetch/types";

const page = (title: string, body: string): FetchedDocument =>
  documentFromHtml(
    `<html><head><title>${title}</title></head><body>${body}</body></html>`,
    "https://site.example/",
  );
const ARTICLE_FILLER =
  "The reporter spoke to engineers, operators and users over several weeks to understand the problem. ".repeat(
    25,
  );

describe("checkContent rejects interstitials", () => {
  const cases: Array<[string, FetchedDocument, string]> = [
    [
      "Cloudflare 'Just a moment'",
      page(
        "Just a moment...",
        "<h1>Checking your browser before accessing example.com</h1><p>This process is automatic.</p>",
      ),
      "bot_challenge",
    ],
    [
      "Cloudflare attention page",
      page(
        "Attention Required! | Cloudflare",
        "<h1>Sorry, you have been blocked</h1><p>Why have I been blocked?</p>",
      ),
      "bot_challenge",
    ],
    [
      "captcha",
      page(
        "Verification",
        "<p>Please complete the security check to access this site.</p><div class='g-recaptcha'></div>",
      ),
      "bot_challenge",
    ],
    [
      "checking your browser",
      page(
        "Loading",
        "<p>Checking if the site connection is secure. Enable JavaScript and cookies to continue.</p>",
      ),
      "bot_challenge",
    ],
    [
      "Akamai access denied",
      page(
        "Access Denied",
        '<h1>Access Denied</h1><p>You don\'t have permission to access "http://shop.example/" on this server.</p><p>Reference #18.abc</p>',
      ),
      "bot_challenge",
    ],
    [
      "robot check",
      page("Robot check", "<p>Are you a robot? We detected unusual traffic from your computer network.</p>"),
      "bot_challenge",
    ],
    [
      "login wall",
      page("Example", "<p>Please log in to continue.</p><form><input name=user><input name=pass></form>"),
      "login_wall",
    ],
    ["sign-in wall", page("Example", "<p>You must be signed in to view this page.</p>"), "login_wall"],
    [
      "cookie wall",
      page(
        "Before you continue",
        "<p>Before you continue to Example: we use cookies and data to deliver our services. Accept all or Reject all.</p>",
      ),
      "cookie_wall",
    ],
    [
      "paywall",
      page(
        "Big story",
        `<article><p>${"The first paragraph of the story is free to read. ".repeat(6)}</p><p>Subscribe to continue reading. Already a subscriber? Log in.</p></article>`,
      ),
      "paywall",
    ],
    [
      "JS-only shell (phrase)",
      page(
        "App",
        "<noscript>You need to enable JavaScript to run this app.</noscript><div id='root'></div><script src='/app.js'></script>",
      ),
      "js_shell",
    ],
    [
      "JS-only shell (empty root)",
      page(
        "Dashboard",
        "<div id='__next'></div><script src='/_next/main.js'></script><script>self.__next_f=[]</script>",
      ),
      "js_shell",
    ],
    ["too short", page("Note", "<p>Short.</p>"), "too_short"],
  ];

  it.each(cases)("%s", (_label, document, reason) => {
    expect(checkContent(document)?.reason).toBe(reason);
  });
});

describe("checkContent lets ordinary articles through", () => {
  const articles: Array<[string, string]> = [
    [
      "about Cloudflare challenges",
      `<article><h1>How the 'Just a moment' page works</h1><p>Cloudflare shows a page saying checking your browser before accessing a site; it may ask you to complete the captcha. ${ARTICLE_FILLER}</p></article>`,
    ],
    [
      "about logins",
      `<article><h1>Passkeys explained</h1><p>Many sites ask you to sign in to continue, and some say please log in before anything else. ${ARTICLE_FILLER}</p></article>`,
    ],
    [
      "about cookies",
      `<article><h1>Cookie banners</h1><p>Sites say we use cookies and ask you to accept all cookies to continue. ${ARTICLE_FILLER}</p></article>`,
    ],
    [
      "about paywalls",
      `<article><h1>The economics of paywalls</h1><p>A banner that says subscribe to continue reading converts about two per cent of readers. ${ARTICLE_FILLER} ${ARTICLE_FILLER}</p></article>`,
    ],
    [
      "about JavaScript",
      `<article><h1>Progressive enhancement</h1><p>A page that says you need to enable JavaScript to run this app fails its users. ${ARTICLE_FILLER}</p></article><div id='root'></div><script src='/a.js'></script>`,
    ],
  ];

  it.each(articles)("%s", (_label, body) => {
    expect(checkContent(page("An ordinary article", body))).toBeUndefined();
  });
});

describe("checkContent on long Markdown", () => {
  const hugeImage = `<img src="https://cdn.example/${"x".repeat(20_000)}.png" alt="">`;

  it("still judges a page whose Markdown is long but whose text is short", () => {
    const wall = page("Members", `<p>Please sign in to continue.</p>${hugeImage}`);
    expect(wall.markdown.length).toBeGreaterThan(20_000);
    expect(checkContent(wall)?.reason).toBe("login_wall");
    expect(checkContent(page("Note", `<p>Short.</p>${hugeImage}`))?.reason).toBe("too_short");
  });

  it("lets a long article through when a phrase rule's words come after its first paragraphs", () => {
    const paragraphs = Array.from({ length: 60 }, (_, i) => `<p>Paragraph ${i}. ${ARTICLE_FILLER}</p>`);
    const article = page(
      "Long read",
      `<article>${paragraphs.join("")}<p>Please sign in to continue.</p></article>`,
    );
    expect(article.markdown.length).toBeGreaterThan(100_000);
    expect(checkContent(article)).toBeUndefined();
  });
});
