/**
 * Fetch providers' wires for the fake provider server: `startFakeProviders(FETCH_WIRES)`. Each wire is
 * keyed by `fetch-<provider id>` (search wires own the bare ids of Tavily, Exa, Jina and Firecrawl) and
 * renders `scenario.payload` (a FakePage) in that provider's documented response shape.
 */
import { Buffer } from "node:buffer";
import {
  bearer,
  type FakeResponse,
  type FakeWire,
  header,
  json,
  keyless,
  type RecordedRequest,
} from "./provider-server";

export interface FakePage {
  title?: string;
  /** What Markdown-returning providers send. */
  markdown?: string;
  /** What HTML-returning providers send. */
  html?: string;
  /** The page URL the provider reports. */
  url?: string;
}

export const DEFAULT_PAGE: Required<FakePage> = {
  title: "Provider page",
  url: "https://example.com/article",
  markdown: `# Provider page\n\n${"Content fetched through a provider, long enough to pass the content checks. ".repeat(6)}`,
  html: `<html><head><title>Provider page</title></head><body><article><h1>Provider page</h1><p>${"Content fetched through a provider, long enough to pass the content checks. ".repeat(6)}</p></article></body></html>`,
};

const page = (payload: unknown): Required<FakePage> => ({
  ...DEFAULT_PAGE,
  ...(payload as FakePage | undefined),
});
const htmlBody = (payload: unknown): FakeResponse => ({
  contentType: "text/html; charset=utf-8",
  body: page(payload).html,
});
const query = (name: string) => (request: RecordedRequest) => request.query[name];
/** The `user:password` of an HTTP Basic authorization header. */
const basicCredentials = (request: RecordedRequest) =>
  Buffer.from(request.headers.authorization?.replace(/^Basic\s+/i, "") ?? "", "base64").toString();

/**
 * The fake Reddit's access token names the app it was issued to, so the thread wire can check the app
 * (`expectedApiKey` is the key, "<client id>:<client secret>") behind the bearer token it is shown.
 */
const redditToken = (credentials: string) =>
  `fake-reddit-token.${Buffer.from(credentials).toString("base64url")}`;
const redditAppBehindToken = (request: RecordedRequest) => {
  const token = request.headers.authorization?.replace(/^bearer\s+/i, "") ?? "";
  return token.startsWith("fake-reddit-token.")
    ? Buffer.from(token.slice("fake-reddit-token.".length), "base64url").toString()
    : undefined;
};

export const fetchWireId = (providerId: string) => `fetch-${providerId}`;

const GITHUB_WIRE: FakeWire = {
  method: "GET",
  path: "/repos/octo/hello/readme",
  credential: bearer,
  render: ({ payload }) => ({
    contentType: "application/vnd.github.raw+json",
    body: page(payload).markdown,
  }),
};

const REDDIT_WIRE: FakeWire = {
  method: "GET",
  path: "/r/rust/comments/abc123",
  credential: redditAppBehindToken,
  render: ({ payload }) => json(redditThread(page(payload))),
};

export const FETCH_WIRES: Readonly<Record<string, FakeWire>> = {
  "fetch-jina": {
    method: "POST",
    path: "/",
    credential: bearer,
    // Reader's JSON answer (jina-ai/reader src/services/snapshot-formatter.ts): `content` for Markdown,
    // `html` (the whole document) for X-Return-Format: html.
    render: ({ payload }, request) => {
      const p = page(payload);
      const body = request.headers["x-return-format"] === "html" ? { html: p.html } : { content: p.markdown };
      return json({
        code: 200,
        status: 20000,
        data: { title: p.title, url: p.url, description: "", ...body, usage: { tokens: 120 } },
      });
    },
  },
  "fetch-firecrawl": {
    method: "POST",
    path: "/v2/scrape",
    credential: bearer,
    render: ({ payload }) => {
      const p = page(payload);
      return json({
        success: true,
        data: { markdown: p.markdown, metadata: { title: p.title, sourceURL: p.url, statusCode: 200 } },
      });
    },
  },
  "fetch-tavily": {
    method: "POST",
    path: "/extract",
    credential: bearer,
    render: ({ payload }) => {
      const p = page(payload);
      return json({
        results: [{ url: p.url, raw_content: p.markdown, images: [] }],
        failed_results: [],
        response_time: 0.3,
      });
    },
  },
  "fetch-exa": {
    method: "POST",
    path: "/contents",
    credential: header("x-api-key"),
    render: ({ payload }) => {
      const p = page(payload);
      return json({
        requestId: "fake",
        results: [
          { id: p.url, url: p.url, title: p.title, author: null, publishedDate: null, text: p.markdown },
        ],
        statuses: [{ id: p.url, status: "success" }],
      });
    },
  },
  "fetch-scrapingbee": {
    method: "GET",
    path: "/api/v1/",
    credential: query("api_key"),
    render: ({ payload }) => htmlBody(payload),
  },
  "fetch-scraperapi": {
    method: "GET",
    path: "/",
    credential: query("api_key"),
    render: ({ payload }) => htmlBody(payload),
  },
  "fetch-brightdata": {
    method: "POST",
    path: "/request",
    credential: bearer,
    render: ({ payload }) => htmlBody(payload),
  },
  "fetch-zyte": {
    method: "POST",
    path: "/v1/extract",
    credential: (request) => basicCredentials(request).replace(/:$/, ""),
    render: ({ payload }) => {
      const p = page(payload);
      return json({
        url: p.url,
        statusCode: 200,
        httpResponseBody: Buffer.from(p.html).toString("base64"),
        httpResponseHeaders: [{ name: "Content-Type", value: "text/html; charset=utf-8" }],
      });
    },
  },
  "fetch-diffbot": {
    method: "GET",
    path: "/v3/article",
    credential: query("token"),
    render: ({ payload }) => {
      const p = page(payload);
      return json({
        request: { pageUrl: p.url, api: "article", version: 3 },
        objects: [{ type: "article", title: p.title, html: p.html, text: p.markdown, pageUrl: p.url }],
      });
    },
  },
  "fetch-spider": {
    method: "POST",
    path: "/scrape",
    credential: bearer,
    render: ({ payload }) => {
      const p = page(payload);
      return json([
        { url: p.url, content: p.markdown, status: 200, error: null, costs: { total_cost: 0.0001 } },
      ]);
    },
  },
  "fetch-scrapfly": {
    method: "GET",
    path: "/scrape",
    credential: query("key"),
    render: ({ payload }) => {
      const p = page(payload);
      return json({
        config: {},
        context: {},
        result: {
          content: p.markdown,
          status_code: 200,
          url: p.url,
          content_type: "text/html",
          // python-scrapfly reads `format`: "text" for text content (markdown included), "clob"/"blob" stored apart.
          format: "text",
          success: true,
        },
      });
    },
  },
  "fetch-github": GITHUB_WIRE,
  "fetch-reddit": REDDIT_WIRE,
  // Application-only OAuth (github.com/reddit-archive/reddit/wiki/OAuth2): the token answer as documented.
  "fetch-reddit/token": {
    method: "POST",
    path: "/api/v1/access_token",
    credential: basicCredentials,
    render: (_scenario, request) =>
      json({
        access_token: redditToken(basicCredentials(request)),
        token_type: "bearer",
        expires_in: 3600,
        scope: "*",
      }),
  },
  "fetch-arxiv": {
    method: "GET",
    path: "/api/query",
    credential: keyless,
    render: ({ payload }) => ({
      contentType: "application/atom+xml; charset=utf-8",
      body: arxivFeed(page(payload)),
    }),
  },
  "fetch-supadata": {
    method: "GET",
    path: "/v1/transcript",
    credential: header("x-api-key"),
    render: ({ payload }) => json({ content: page(payload).markdown, lang: "en", availableLangs: ["en"] }),
  },
};

function redditThread(p: Required<FakePage>) {
  const comment = (author: string, body: string, replies: unknown = "") => ({
    kind: "t1",
    data: { author, body, score: 12, replies },
  });
  return [
    {
      kind: "Listing",
      data: {
        children: [
          {
            kind: "t3",
            data: {
              title: p.title,
              selftext: p.markdown,
              author: "op_user",
              subreddit: "rust",
              score: 321,
              created_utc: 1_700_000_000,
              permalink: "/r/rust/comments/abc123/a_thread/",
              num_comments: 2,
            },
          },
        ],
      },
    },
    {
      kind: "Listing",
      data: {
        children: [
          comment("first_commenter", "Top-level comment with a useful answer.", {
            kind: "Listing",
            data: { children: [comment("second_commenter", "A nested reply that agrees.")] },
          }),
          { kind: "more", data: { count: 5, children: ["x1", "x2"] } },
        ],
      },
    },
  ];
}

function arxivFeed(p: Required<FakePage>): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
  <title>arXiv Query: id_list=2401.00001</title>
  <entry>
    <id>http://arxiv.org/abs/2401.00001v1</id>
    <updated>2024-01-02T00:00:00Z</updated>
    <published>2024-01-01T00:00:00Z</published>
    <title>${p.title}</title>
    <summary>  ${p.markdown.replace(/[#<>&]/g, "")}  </summary>
    <author><name>Grace Hopper</name></author>
    <author><name>Alan Turing</name></author>
    <arxiv:doi>10.1000/fake.doi</arxiv:doi>
    <link href="http://arxiv.org/abs/2401.00001v1" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/2401.00001v1" rel="related" type="application/pdf"/>
    <arxiv:primary_category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.LG" scheme="http://arxiv.org/schemas/atom"/>
    <category term="cs.AI" scheme="http://arxiv.org/schemas/atom"/>
  </entry>
</feed>`;
}

/**
 * The domain routes' wires again at the paths of the pages a provider check fetches (their probeUrl: GitHub's
 * sample repository, an archived Reddit thread), for the key test and `providers verify`.
 */
export const PROBE_PAGE_WIRES: Readonly<Record<string, FakeWire>> = {
  "fetch-github/probe": { ...GITHUB_WIRE, path: "/repos/octocat/Hello-World/readme" },
  "fetch-reddit/probe": { ...REDDIT_WIRE, path: "/r/announcements/comments/eorhm" },
};
