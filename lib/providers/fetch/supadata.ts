/**
 * YouTube domain route through Supadata's transcript API (keyed). Long videos are transcribed as a
 * job: HTTP 202 with a jobId, polled until done or the step's deadline.
 * Docs: https://docs.supadata.ai (Transcript: GET /v1/transcript, job status GET /v1/transcript/{jobId});
 *   SDK types: https://www.npmjs.com/package/@supadata/js
 * Wire: GET {base}/v1/transcript?url=<video>&text=true, `x-api-key: <key>` -> 200 {content: string, lang,
 *   availableLangs} or 202 {jobId}; job: {status: "queued"|"active"|"completed"|"failed", content?|result?,
 *   error?}. The job status shape is taken from the SDK (not confirmed against a live job).
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

const transcript = z.object({ content: z.string(), lang: z.string().nullish() });
const started = z.object({ jobId: z.string() });
const job = z.object({
  status: z.enum(["queued", "active", "completed", "failed"]),
  content: z.string().nullish(),
  result: z.object({ content: z.string() }).nullish(),
  lang: z.string().nullish(),
  error: z.unknown().optional(),
});

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

  ...domainRoute("YouTube", videoId),

  async fetch(call) {
    const apiKey = requireApiKey(call, supadata.displayName);
    const id = videoId(call.url) ?? "";
    const headers = { "x-api-key": apiKey };
    const response = await requestJson(
      buildUrl(call.baseUrl, "/v1/transcript", { url: call.url.toString(), text: true }),
      { headers, signal: call.signal },
    );
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
    if (state.status === "failed")
      throw new ProviderError("http_error", "Supadata could not transcribe the video");
    const content = state.content ?? state.result?.content;
    if (state.status === "completed" && content) return { content, lang: state.lang };
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
