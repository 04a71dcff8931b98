/**
 * YouTube domain route through Supadata's transcript API (keyed). Long videos are transcribed as a
 * job: HTTP 202 with a jobId, polled until done or the step's deadline.
 * Docs: https://docs.supadata.ai/get-transcript (GET /v1/transcript; job results GET /v1/transcript/{jobId});
 *   SDKs: supadata-ai/js src/services/transcript.ts, src/types.ts; supadata-ai/py supadata/client.py.
 * Wire: GET {base}/v1/transcript?url=<video>&text=true&mode=native, `x-api-key: <key>` -> 200 {content:
 *   string, lang, availableLangs}, 202 {jobId}, or 206 {error: "transcript-unavailable", message, details}
 *   (the video has no transcript; supadata-ai/py treats 206 as that error). `mode=native` fetches the
 *   transcript YouTube has and never asks for an AI-generated one (the default `auto` falls back to
 *   generating, which Supadata prices per minute of video). Job: {status: "queued"|"active"|"completed"|
 *   "failed", error?, content?, lang?} with the transcript on the job itself (docs.supadata.ai OpenAPI
 *   example) or under `result` (supadata-ai/js JobResult); content is text, or chunks [{text, offset,
 *   duration, lang}].
 * Its price and free tier: lib/providers/prices.ts.
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
import { domainRoute, markdownDocument, requireApiKey, sleep, withFacts } from "./adapter-kit";

const POLL_INTERVAL_MS = 1_000;
const VIDEO_ID = /^[\w-]{6,}$/;

/** Plain text (text=true), or timestamped chunks, which a job may answer with whatever was asked. */
const content = z
  .union([z.string(), z.array(z.object({ text: z.string() }))])
  .transform((value) => (typeof value === "string" ? value : value.map((chunk) => chunk.text).join(" ")));
const transcript = z.object({ content, lang: z.string().nullish() });
const started = z.object({ jobId: z.string() });
const unavailable = z.object({
  error: z.string(),
  message: z.string().nullish(),
  details: z.string().nullish(),
});
const job = z.object({
  status: z.enum(["queued", "active", "completed", "failed"]),
  content: content.nullish(),
  lang: z.string().nullish(),
  result: transcript.nullish(),
  error: z.object({ message: z.string().nullish(), details: z.string().nullish() }).nullish(),
});

/** Supadata's 206: the video has no transcript (in native mode: none on YouTube). */
const NO_TRANSCRIPT = 206;

export const supadata: FetchProvider = {
  id: "supadata",
  displayName: "Supadata (YouTube transcripts)",
  keyEnv: ["SUPADATA_API_KEY"],
  baseUrlEnv: "SUPADATA_BASE_URL",
  defaultBaseUrl: "https://api.supadata.ai",
  docsUrl: "https://docs.supadata.ai",
  apiVersion: "v1",
  price: listedPrice("supadata"),
  defaultTimeoutMs: 60_000,

  // "Me at the zoo", the first YouTube video: 19 seconds, online since 2005.
  ...domainRoute("YouTube", videoId, "https://www.youtube.com/watch?v=jNQXAC9IVRw"),

  async fetch(call) {
    const apiKey = requireApiKey(call, supadata.displayName);
    const id = videoId(call.url) ?? "";
    const headers = { "x-api-key": apiKey };
    const response = await requestJson(
      buildUrl(call.baseUrl, "/v1/transcript", { url: call.url.toString(), text: true, mode: "native" }),
      { headers, signal: call.signal },
    );
    if (response.status === NO_TRANSCRIPT) {
      const refusal = parseResponse(unavailable, response.json);
      throw new ProviderError(
        "http_error",
        `Supadata has no transcript of this video (${refusal.error}: ${refusal.details ?? refusal.message ?? "no details"})`,
        NO_TRANSCRIPT,
      );
    }
    const result =
      response.status === 202
        ? await awaitJob(call, parseResponse(started, response.json).jobId, headers)
        : parseResponse(transcript, response.json);
    return markdownDocument(
      {
        markdown: `# YouTube video ${id}: transcript\n\n${result.content.trim()}`,
        title: `YouTube video ${id} (transcript)`,
        finalUrl: `https://www.youtube.com/watch?v=${id}`,
        metadata: withFacts({ language: result.lang, site_name: "YouTube" }),
      },
      call.url.toString(),
      response,
      supadata.displayName,
    );
  },
};

async function awaitJob(call: FetchCall, jobId: string, headers: Record<string, string>) {
  for (;;) {
    await sleep(POLL_INTERVAL_MS, call.signal);
    const response = await requestJson(buildUrl(call.baseUrl, encodePath(["v1", "transcript", jobId])), {
      headers,
      signal: call.signal,
    });
    const state = parseResponse(job, response.json);
    if (state.status === "failed") {
      const why = state.error?.details ?? state.error?.message ?? "no reason given";
      throw new ProviderError("http_error", `Supadata could not transcribe the video: ${why}`);
    }
    const text = state.content ?? state.result?.content;
    if (state.status === "completed" && text)
      return { content: text, lang: state.lang ?? state.result?.lang };
  }
}

/** The video id of a watch, short, live, embed or youtu.be URL; InvalidPath for a bad path segment. */
function videoId(url: URL): string | undefined {
  const host = url.hostname.replace(/^(www|m|music)\./, "");
  if (host !== "youtu.be" && host !== "youtube.com") return undefined;
  userPathSegments(url.pathname);
  if (host === "youtu.be") return /^\/([\w-]{6,})/.exec(url.pathname)?.[1];
  if (url.pathname === "/watch") {
    const id = url.searchParams.get("v") ?? "";
    return VIDEO_ID.test(id) ? id : undefined;
  }
  return /^\/(shorts|live|embed)\/([\w-]{6,})/.exec(url.pathname)?.[2];
}
