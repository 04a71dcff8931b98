/**
 * GitHub domain route: repository README, a file, an issue or a pull request through the REST API
 * instead of the HTML page. GITHUB_TOKEN is optional (60 requests/hour without, 5,000 with).
 * Docs: https://docs.github.com/en/rest (repos/contents#get-a-repository-readme,
 *   repos/contents#get-repository-content, issues/issues#get-an-issue, pulls/pulls#get-a-pull-request,
 *   issues/comments#list-issue-comments); API version 2022-11-28.
 * Wire: GET {base}/repos/{owner}/{repo}/readme and /contents/{path}?ref= (each path segment
 *   percent-encoded) with
 *   `Accept: application/vnd.github.raw+json` (raw file body); /issues/{n}, /pulls/{n},
 *   /issues/{n}/comments?per_page=100 as JSON; optional `Authorization: Bearer <token>`.
 */
import { z } from "zod";
import type { FetchCall, FetchProvider } from "@/lib/engine/fetch/types";
import {
  buildUrl,
  encodePath,
  parseResponse,
  request,
  requestJson,
  userPathSegments,
} from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { domainRoute, markdownDocument, type Transport, withFacts } from "./adapter-kit";

const API_VERSION = "2022-11-28";
const NAME = /^[A-Za-z0-9_.-]+$/;
const NUMBER = /^\d+$/;

/** `api`: the API path, built from encoded segments under /repos/{owner}/{repo}. */
type Target =
  | { kind: "readme"; repo: string; api: string }
  | { kind: "file"; repo: string; ref: string; path: string; api: string }
  | { kind: "thread"; repo: string; number: string; pull: boolean; api: string; comments: string };

const user = z.object({ login: z.string() }).nullish();
const threadSchema = z.object({
  title: z.string(),
  body: z.string().nullish(),
  state: z.string(),
  user,
  created_at: z.string(),
  html_url: z.string(),
  comments: z.number().nullish(),
  merged: z.boolean().nullish(),
  additions: z.number().nullish(),
  deletions: z.number().nullish(),
  changed_files: z.number().nullish(),
  head: z.object({ label: z.string() }).nullish(),
  base: z.object({ label: z.string() }).nullish(),
});
const commentsSchema = z.array(z.object({ body: z.string().nullish(), user, created_at: z.string() }));

export const github: FetchProvider = {
  id: "github",
  displayName: "GitHub",
  keyEnv: ["GITHUB_TOKEN"],
  keyOptional: true,
  baseUrlEnv: "GITHUB_API_BASE_URL",
  defaultBaseUrl: "https://api.github.com",
  docsUrl: "https://docs.github.com/en/rest",
  apiVersion: API_VERSION,
  price: listedPrice("github"),
  defaultTimeoutMs: 15_000,

  // GitHub's own sample repository: a one-line README.
  ...domainRoute("GitHub", target, "https://github.com/octocat/Hello-World"),

  async fetch(call) {
    const found = target(call.url);
    if (found === undefined) throw new Error(`not a GitHub repository, file, issue or pull request URL`);
    const page = call.url.toString();
    if (found.kind === "thread") return thread(call, found);
    const response = await request(
      buildUrl(call.baseUrl, found.api, found.kind === "file" ? { ref: found.ref } : {}),
      { headers: headers(call, "application/vnd.github.raw+json"), signal: call.signal },
    );
    const markdown = found.kind === "file" ? asMarkdown(found.path, response.body) : response.body;
    const title = found.kind === "readme" ? `${found.repo} README` : `${found.repo}: ${found.path}`;
    return markdownDocument({ markdown, title, finalUrl: page }, page, response, github.displayName);
  },
};

/**
 * github.com/{owner}/{repo}[/blob/{ref}/{path} | /issues/{n} | /pull/{n}]. Segments are decoded one by
 * one and re-encoded one by one into the API path (an encoded slash in a file path stays encoded; the API
 * reads it as a separator); InvalidPath for a malformed escape, a dot segment or an empty file segment.
 */
function target(url: URL): Target | undefined {
  if (url.hostname !== "github.com" && url.hostname !== "www.github.com") return undefined;
  const segments = userPathSegments(url.pathname);
  if (segments.at(-1) === "") segments.pop();
  const [owner = "", name = "", kind, ref, ...rest] = segments;
  if (!NAME.test(owner) || !NAME.test(name)) return undefined;
  const repo = `${owner}/${name}`;
  const api = (...below: string[]) => encodePath(["repos", owner, name, ...below]);
  if (kind === undefined) return { kind: "readme", repo, api: api("readme") };
  if (kind === "blob" && ref !== undefined && rest.length > 0) {
    return { kind: "file", repo, ref, path: rest.join("/"), api: api("contents", ...rest) };
  }
  if ((kind === "issues" || kind === "pull") && ref !== undefined && NUMBER.test(ref) && rest.length === 0) {
    const pull = kind === "pull";
    return {
      kind: "thread",
      repo,
      number: ref,
      pull,
      api: api(pull ? "pulls" : "issues", ref),
      comments: api("issues", ref, "comments"),
    };
  }
  return undefined;
}

async function thread(
  call: FetchCall,
  { repo, number, pull, api, comments: commentsApi }: Extract<Target, { kind: "thread" }>,
) {
  const [main, comments] = await Promise.all([
    requestJson(buildUrl(call.baseUrl, api), {
      headers: headers(call, "application/vnd.github+json"),
      signal: call.signal,
    }),
    requestJson(buildUrl(call.baseUrl, commentsApi, { per_page: 100 }), {
      headers: headers(call, "application/vnd.github+json"),
      signal: call.signal,
    }),
  ]);
  const item = parseResponse(threadSchema, main.json);
  const replies = parseResponse(commentsSchema, comments.json);
  const state = item.merged ? "merged" : item.state;
  const facts = [
    `**${state}**`,
    `opened by @${item.user?.login ?? "ghost"} on ${item.created_at.slice(0, 10)}`,
  ];
  if (pull && item.head && item.base) facts.push(`${item.head.label} → ${item.base.label}`);
  if (pull && item.changed_files != null) {
    facts.push(`+${item.additions ?? 0} −${item.deletions ?? 0} in ${item.changed_files} files`);
  }
  const parts = [
    `# ${item.title} (${repo}#${number})`,
    facts.join(" · "),
    item.body?.trim() || "_No description._",
  ];
  if (replies.length > 0) {
    parts.push(`## Comments (${replies.length})`);
    for (const reply of replies) {
      parts.push(
        `### @${reply.user?.login ?? "ghost"} · ${reply.created_at.slice(0, 10)}`,
        reply.body?.trim() ?? "",
      );
    }
  }
  const transport: Transport = { status: main.status, bytes: main.bytes + comments.bytes };
  return markdownDocument(
    {
      markdown: parts.join("\n\n"),
      title: `${item.title} · ${repo}#${number}`,
      finalUrl: item.html_url,
      metadata: withFacts({ byline: item.user?.login, published: item.created_at }),
    },
    call.url.toString(),
    transport,
    github.displayName,
  );
}

function headers(call: FetchCall, accept: string): Record<string, string> {
  const result: Record<string, string> = { accept, "x-github-api-version": API_VERSION };
  if (call.apiKey) result.authorization = `Bearer ${call.apiKey}`;
  return result;
}

/** Markdown files as they are; anything else in a fenced block tagged with its extension. */
function asMarkdown(path: string, body: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? "";
  if (extension === "md" || extension === "markdown" || extension === "mdx") return body;
  const fence = body.includes("```") ? "````" : "```";
  return `${fence}${extension}\n${body.replace(/\n$/, "")}\n${fence}`;
}
