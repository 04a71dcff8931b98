/**
 * Reddit domain route: a post with its comment tree through Reddit's Data API, signed in as the operator's
 * (or the workspace's) registered app with application-only OAuth (reddit-token.ts). Reddit closed the
 * keyless `.json` view of threads in May 2026 (r/modnews, "Protecting communities from scrapers and
 * platform abuse": "shutting down unauthenticated .json endpoints … authenticated access won't be
 * impacted"), so without a key the route is not configured and the waterfall fetches the page instead.
 * Key: REDDIT_CLIENT_CREDENTIALS, "<client id>:<client secret>" of an app from reddit.com/prefs/apps.
 * Docs: https://www.reddit.com/dev/api/#GET_comments_{article} ; rules (OAuth only, a descriptive
 *   User-Agent, X-Ratelimit-* headers): https://github.com/reddit-archive/reddit/wiki/API
 * Wire: GET {base}/r/{sub}/comments/{id}?raw_json=1&limit=200&depth=5, `Authorization: bearer <token>`,
 *   `User-Agent: <platform>:<app ID>:<version>` -> [postListing, commentListing]; each listing {kind:
 *   "Listing", data: {children: [{kind: "t3"|"t1"|"more", data}]}}; t3: {title, selftext, author,
 *   subreddit, score, created_utc, url, permalink, num_comments}; t1: {author, body, score, replies: "" |
 *   listing}. The API is on oauth.reddit.com, tokens come from www.reddit.com.
 */
import { z } from "zod";
import type { FetchCall, FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import {
  buildUrl,
  encodePath,
  parseResponse,
  requestJson,
  userPathSegments,
} from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { domainRoute, markdownDocument, requireApiKey, withFacts } from "./adapter-kit";
import { appOnlyToken, forgetToken } from "./reddit-token";

const DEFAULT_BASE_URL = "https://oauth.reddit.com";
/** Reddit's token host for its own API host; a proxy or test base URL serves both. */
const TOKEN_BASE_FOR_DEFAULT = "https://www.reddit.com";
/** Reddit's format, `<platform>:<app ID>:<version string>`: default user agents are "drastically limited". */
const USER_AGENT = "server:searchmux:0.1 (+https://github.com/searchmux/searchmux)";
const THREAD = /^\/r\/([A-Za-z0-9_]+)\/comments\/([a-z0-9]+)/i;
const MAX_DEPTH = 4;
const MAX_COMMENTS = 200;

const child = z.object({ kind: z.string(), data: z.record(z.string(), z.unknown()) });
const listing = z.object({ data: z.object({ children: z.array(child) }) });
const post = z.object({
  title: z.string(),
  selftext: z.string().nullish(),
  author: z.string().nullish(),
  subreddit: z.string().nullish(),
  score: z.number().nullish(),
  created_utc: z.number().nullish(),
  url: z.string().nullish(),
  permalink: z.string().nullish(),
  num_comments: z.number().nullish(),
});
const comment = z.object({
  author: z.string().nullish(),
  body: z.string().nullish(),
  score: z.number().nullish(),
  replies: z.unknown().optional(),
});

export const reddit: FetchProvider = {
  id: "reddit",
  displayName: "Reddit",
  keyEnv: ["REDDIT_CLIENT_CREDENTIALS"],
  baseUrlEnv: "REDDIT_BASE_URL",
  defaultBaseUrl: DEFAULT_BASE_URL,
  docsUrl: "https://www.reddit.com/dev/api/",
  apiVersion: "Data API, application-only OAuth",
  price: listedPrice("reddit"),
  defaultTimeoutMs: 15_000,

  // An archived announcement from 2011: no new comments change it.
  ...domainRoute(
    "Reddit",
    thread,
    "https://www.reddit.com/r/announcements/comments/eorhm/reddit_30_less_typing/",
  ),

  async fetch(call) {
    const found = thread(call.url);
    if (!found) throw new Error("not a Reddit thread URL");
    const response = await threadListings(call, found);
    const [postListing, commentListing] = parseResponse(z.tuple([listing, listing]), response.json);
    const first = postListing.data.children[0];
    if (first === undefined) throw new ProviderError("invalid_response", "Reddit returned no post");
    const item = parseResponse(post, first.data);
    const lines = [
      `# ${item.title}`,
      `r/${item.subreddit ?? found.sub} · u/${item.author ?? "[deleted]"} · ${item.score ?? 0} points · ${item.num_comments ?? 0} comments`,
    ];
    if (item.selftext?.trim()) lines.push(item.selftext.trim());
    else if (item.url && !item.url.includes(`/comments/${found.id}`)) lines.push(`Link: ${item.url}`);
    const comments: string[] = [];
    renderComments(commentListing.data.children, 0, comments);
    if (comments.length > 0) lines.push("## Comments", ...comments);
    const permalink = item.permalink
      ? new URL(item.permalink, "https://www.reddit.com").toString()
      : undefined;
    return markdownDocument(
      {
        markdown: lines.join("\n\n"),
        title: item.title,
        finalUrl: permalink,
        metadata: withFacts({
          byline: item.author,
          published: item.created_utc ? new Date(item.created_utc * 1000).toISOString() : undefined,
          site_name: "Reddit",
        }),
      },
      call.url.toString(),
      response,
      reddit.displayName,
    );
  },
};

/** The thread's two listings; a token Reddit refuses (revoked, expired early) is replaced once. */
async function threadListings(call: FetchCall, found: { sub: string; id: string }) {
  const credentials = requireApiKey(call, reddit.displayName);
  const token = {
    tokenBase: call.baseUrl.replace(/\/+$/, "") === DEFAULT_BASE_URL ? TOKEN_BASE_FOR_DEFAULT : call.baseUrl,
    credentials,
    userAgent: USER_AGENT,
    signal: call.signal,
  };
  const url = buildUrl(call.baseUrl, encodePath(["r", found.sub, "comments", found.id]), {
    raw_json: 1,
    limit: MAX_COMMENTS,
    depth: MAX_DEPTH + 1,
  });
  const read = (accessToken: string) =>
    requestJson(url, {
      headers: { authorization: `bearer ${accessToken}`, "user-agent": USER_AGENT },
      signal: call.signal,
    });
  const held = await appOnlyToken(token);
  try {
    return await read(held);
  } catch (error) {
    if (!(error instanceof ProviderError && error.status === 401)) throw error;
    forgetToken(token);
    return read(await appOnlyToken(token));
  }
}

/** The subreddit and post id of a thread URL; InvalidPath for a reddit.com path with a bad segment. */
function thread(url: URL): { sub: string; id: string } | undefined {
  if (!/(^|\.)reddit\.com$/.test(url.hostname)) return undefined;
  userPathSegments(url.pathname);
  const [, sub, id] = THREAD.exec(url.pathname) ?? [];
  return sub && id ? { sub, id } : undefined;
}

/** Depth-first, quoted one level deeper per reply; "more" stubs and deleted bodies are skipped. */
function renderComments(children: ReadonlyArray<z.infer<typeof child>>, depth: number, out: string[]): void {
  for (const node of children) {
    if (out.length >= MAX_COMMENTS || depth > MAX_DEPTH) return;
    if (node.kind !== "t1") continue;
    const parsed = comment.safeParse(node.data);
    if (!parsed.success) continue;
    const data = parsed.data;
    const body = data.body?.trim();
    if (body && body !== "[deleted]" && body !== "[removed]") {
      const quote = "> ".repeat(depth);
      const text = `**u/${data.author ?? "[deleted]"}** · ${data.score ?? 0} points\n\n${body}`;
      out.push(
        text
          .split("\n")
          .map((line) => `${quote}${line}`.trimEnd())
          .join("\n"),
      );
    }
    const replies = listing.safeParse(data.replies);
    if (replies.success) renderComments(replies.data.data.children, depth + 1, out);
  }
}
