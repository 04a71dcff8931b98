/**
 * The domain routes speak their providers' current wire: Reddit through application-only OAuth (its
 * keyless `.json` view answers 403 since May 2026), Supadata's native transcripts, its 206 "no
 * transcript" and its transcript jobs. Real adapters and engine against the fake provider server.
 */
import { describe, expect, it } from "vitest";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeWire, json, type RecordedRequest } from "@/tests/fakes/provider-server";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";
import { fakeFetchEntry, LOOPBACK_ONLY, TEST_KEY } from "./entries";

const REDDIT_APP = "reddit-client-id:reddit-client-secret";
const THREAD_URL = "https://www.reddit.com/r/rust/comments/abc123/a_thread/";
const VIDEO_URL = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
const TRANSCRIPT =
  "Never gonna give you up, never gonna let you down, never gonna run around and desert you.";

/** A Reddit that revokes tokens on demand: only the latest token it issued is accepted. */
let issued = 0;
let accepted = "";
const rotatingReddit: Record<string, FakeWire> = {
  "rotating-reddit": {
    ...FETCH_WIRES["fetch-reddit"],
    credential: (request) => (request.headers.authorization === `bearer ${accepted}` ? "valid" : "stale"),
  } as FakeWire,
  "rotating-reddit/token": {
    method: "POST",
    path: "/api/v1/access_token",
    credential: () => "valid",
    render: () => {
      issued += 1;
      accepted = `token-${issued}`;
      return json({ access_token: accepted, token_type: "bearer", expires_in: 3600, scope: "*" });
    },
  },
};

const JOB_ID = "123e4567-e89b-12d3-a456-426614174000";
/** Supadata answering with a job, then the job's result as docs.supadata.ai's reference shows it. */
const supadataJob: Record<string, FakeWire> = {
  "supadata-job": {
    method: "GET",
    path: "/v1/transcript",
    credential: (request) => request.headers["x-api-key"],
    render: () => ({ status: 202, ...json({ jobId: JOB_ID }) }),
  },
  "supadata-job/status": {
    method: "GET",
    path: `/v1/transcript/${JOB_ID}`,
    credential: (request) => request.headers["x-api-key"],
    render: () =>
      json({
        status: "completed",
        error: null,
        content: [
          { text: TRANSCRIPT, offset: 8150, duration: 1200, lang: "en" },
          {
            text: "A second chunk of the transcript, long enough to read.",
            offset: 9350,
            duration: 900,
            lang: "en",
          },
        ],
        lang: "en",
        availableLangs: ["en", "es", "zh-TW"],
      }),
  },
  // supadata-ai/py supadata/client.py: a 206 on a transcript path is the error "transcript-unavailable".
  "supadata-none": {
    method: "GET",
    path: "/v1/transcript",
    credential: (request) => request.headers["x-api-key"],
    render: () => ({
      status: 206,
      ...json({
        error: "transcript-unavailable",
        message: "No Transcript",
        details: "No transcript is available for this video",
      }),
    }),
  },
};

/** arXiv's answer to an id it refuses (user manual §3.4 "Errors"): a feed whose one entry is the error. */
const arxivError: Record<string, FakeWire> = {
  "arxiv-error": {
    method: "GET",
    path: "/api/query",
    credential: () => undefined,
    render: () => ({
      contentType: "application/atom+xml; charset=utf-8",
      body: `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>arXiv Query: id_list=2401.99999</title>
  <entry>
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_2401.99999</id>
    <title>Error</title>
    <summary>incorrect id format for 2401.99999</summary>
    <updated>2026-12-01T00:00:00-05:00</updated>
    <link href="http://arxiv.org/api/errors#incorrect_id_format_for_2401.99999" rel="alternate" type="text/html"/>
    <author><name>arXiv api core</name></author>
  </entry>
</feed>`,
    }),
  },
};

const fake = setUpFakeProviders({ ...FETCH_WIRES, ...rotatingReddit, ...supadataJob, ...arxivError });

const tokenRequests = (wire: string): RecordedRequest[] =>
  fake.requests(wire).filter((request) => request.path === "/api/v1/access_token");
const threadRequests = (wire: string): RecordedRequest[] =>
  fake.requests(wire).filter((request) => request.path.startsWith("/r/"));

describe("Reddit through application-only OAuth", () => {
  it("exchanges the app's credentials for a token, then reads the thread from the OAuth API", async () => {
    fake.setScenario(fetchWireId("reddit"), { expectedApiKey: REDDIT_APP });
    const result = await runFetch({
      input: { url: THREAD_URL },
      providers: [fakeFetchEntry(fake, "reddit", REDDIT_APP)],
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.provider).toBe("reddit");
    expect(result.content).toContain("r/rust · u/op_user · 321 points");

    const [token] = tokenRequests(fetchWireId("reddit"));
    expect(token?.method).toBe("POST");
    expect(token?.body).toEqual({ grant_type: "client_credentials" });
    expect(token?.headers.authorization).toBe(`Basic ${Buffer.from(REDDIT_APP).toString("base64")}`);
    const [thread] = threadRequests(fetchWireId("reddit"));
    expect(thread?.path).toBe("/r/rust/comments/abc123");
    expect(thread?.query).toMatchObject({ raw_json: "1", limit: "200" });
    expect(thread?.headers.authorization).toMatch(/^bearer fake-reddit-token\./);
    // Reddit's API rules: `<platform>:<app ID>:<version string>`; default user agents are limited.
    expect(thread?.headers["user-agent"]).toMatch(/^server:searchmux:[\d.]+ /);
  });

  it("asks for a token once for many threads, and for a new one when Reddit refuses the token held", async () => {
    fake.setScenario("rotating-reddit", { expectedApiKey: "valid" });
    const entry = {
      ...fakeFetchEntry(fake, "reddit", "rotating-app:secret"),
      baseUrl: fake.baseUrlFor("rotating-reddit"),
    };
    const fetchThread = () =>
      runFetch({ input: { url: THREAD_URL }, providers: [entry], ssrf: LOOPBACK_ONLY });

    await fetchThread();
    await fetchThread();
    expect(tokenRequests("rotating-reddit")).toHaveLength(1);

    accepted = "revoked"; // Reddit revoked the token held: the next thread request answers 401
    const result = await fetchThread();
    expect(result.provider).toBe("reddit");
    expect(tokenRequests("rotating-reddit")).toHaveLength(2);
    expect(threadRequests("rotating-reddit")).toHaveLength(4);
  });

  it("refuses a key that is not <client id>:<client secret> without calling Reddit", async () => {
    const error = await runFetch({
      input: { url: THREAD_URL, providers: ["reddit"] },
      providers: [fakeFetchEntry(fake, "reddit", "only-a-client-id")],
      ssrf: LOOPBACK_ONLY,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchFailed);
    expect((error as FetchFailed).providersFailed).toMatchObject([{ provider: "reddit", reason: "bad_key" }]);
    expect(fake.requests(fetchWireId("reddit"))).toEqual([]);
  });
});

describe("Supadata transcripts", () => {
  it("asks for the native transcript only, never an AI-generated one", async () => {
    fake.setScenario(fetchWireId("supadata"), { expectedApiKey: TEST_KEY });
    const result = await runFetch({
      input: { url: VIDEO_URL },
      providers: [fakeFetchEntry(fake, "supadata")],
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.provider).toBe("supadata");
    const [sent] = fake.requests(fetchWireId("supadata"));
    expect(sent?.query).toEqual({ url: VIDEO_URL, text: "true", mode: "native" });
  });

  it("polls a transcript job and reads the transcript from its result", async () => {
    const result = await runFetch({
      input: { url: VIDEO_URL },
      providers: [{ ...fakeFetchEntry(fake, "supadata"), baseUrl: fake.baseUrlFor("supadata-job") }],
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.content).toContain(TRANSCRIPT);
    expect(result.content).toContain("A second chunk of the transcript");
    expect(result.metadata.language).toBe("en");
    expect(fake.requests("supadata-job").map((r) => r.path)).toEqual([
      "/v1/transcript",
      `/v1/transcript/${JOB_ID}`,
    ]);
  });

  it("reports a video without a transcript (HTTP 206) as such, not as a malformed answer", async () => {
    const error = await runFetch({
      input: { url: VIDEO_URL, providers: ["supadata"] },
      providers: [{ ...fakeFetchEntry(fake, "supadata"), baseUrl: fake.baseUrlFor("supadata-none") }],
      ssrf: LOOPBACK_ONLY,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchFailed);
    expect((error as FetchFailed).providersFailed).toMatchObject([
      {
        provider: "supadata",
        status: 206,
        message: expect.stringMatching(/no transcript.*transcript-unavailable/),
      },
    ]);
  });
});

describe("arXiv", () => {
  it("reports the error entry arXiv answers a refused id with, instead of a paper titled Error", async () => {
    const error = await runFetch({
      input: { url: "https://arxiv.org/abs/2401.99999", providers: ["arxiv"] },
      providers: [{ ...fakeFetchEntry(fake, "arxiv", null), baseUrl: fake.baseUrlFor("arxiv-error") }],
      ssrf: LOOPBACK_ONLY,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchFailed);
    expect((error as FetchFailed).providersFailed).toMatchObject([
      { provider: "arxiv", reason: "http_error", message: expect.stringContaining("incorrect id format") },
    ]);
  });
});
