/**
 * Reddit domain route: a post with its comment tree from Reddit's JSON view of the thread (append
 * `.json` to the permalink), keyless.
 * Docs: https://www.reddit.com/dev/api/#GET_comments_{article} (the .json suffix serves the same listing)
 * Wire: GET {base}/r/{sub}/comments/{id}.json?raw_json=1&limit=200 -> [postListing, commentListing]; each
 *   listing {kind: "Listing", data: {children: [{kind: "t3"|"t1"|"more", data}]}}; t3: {title, selftext,
 *   author, subreddit, score, created_utc, url, permalink, num_comments}; t1: {author, body, score,
 *   created_utc, replies: "" | listing}.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import {
  buildUrl,
  encodePath,
  parseResponse,
  requestJson,
  userPathSegments,
} from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { domainRoute, markdownDocument, withFacts } from "./adapter-kit";

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
  keyEnv: [],
  baseUrlEnv: "REDDIT_BASE_URL",
  defaultBaseUrl: "https://www.reddit.com",
  docsUrl: "https://www.reddit.com/dev/api/",
  apiVersion: "JSON view (unversioned)",
  price: listedPrice("reddit"),
  defaultTimeoutMs: 15_000,

  ...domainRoute("Reddit", thread),

  async fetch(call) {
    const found = thread(call.url);
    if (!found) throw new Error("not a Reddit thread URL");
    const response = await requestJson(
      buildUrl(call.baseUrl, encodePath(["r", found.sub, "comments", `${found.id}.json`]), {
        raw_json: 1,
        limit: MAX_COMMENTS,
      }),
      { signal: call.signal },
    );
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
