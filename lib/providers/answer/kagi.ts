/**
 * Kagi FastGPT (v0).
 * Docs: https://help.kagi.com/kagi/api/fastgpt.html (v0)
 * Wire: POST {base}/fastgpt, `Authorization: Bot <key>`, JSON body {query, cache: true}
 *   -> {meta: {id, node, ms}, data: {output, tokens, references: [{title, snippet, url}]}}.
 * The output cites references (in order) with 【n】 markers, lenticular brackets (the documentation's
 * example shows [n]); both become the [n] every answer's text uses. `web_search` is out of service and
 * must not be sent with any value other than true, so it is left out.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { AnswerProvider } from "@/lib/engine/answer/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requireApiKey } from "@/lib/providers/search/adapter-kit";
import { toProviderAnswer } from "./answer-kit";

/** Kagi's 【n】 citation marker. */
const LENTICULAR_MARKER = /【(\d{1,3})】/g;

const responseSchema = z.object({
  data: z
    .object({
      output: z.string().nullish(),
      references: z.array(z.object({ title: z.string().nullish(), url: z.string() })).nullish(),
    })
    .nullish(),
  error: z.array(z.object({ msg: z.string().nullish() })).nullish(),
});

export const kagi: AnswerProvider = {
  id: "kagi",
  displayName: "Kagi FastGPT",
  keyEnv: ["KAGI_API_KEY"],
  baseUrlEnv: "KAGI_BASE_URL",
  defaultBaseUrl: "https://kagi.com/api/v0",
  docsUrl: "https://help.kagi.com/kagi/api/fastgpt.html",
  apiVersion: "v0",
  price: listedPrice("kagi/answer"),
  defaultTimeoutMs: 60_000,
  defaultModel: "fastgpt",
  grounded: false,

  async answer(call) {
    const apiKey = requireApiKey(call, kagi.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/fastgpt"), {
      method: "POST",
      headers: { authorization: `Bot ${apiKey}` },
      json: { query: call.query, cache: true },
      signal: call.signal,
    });
    const data = parseResponse(responseSchema, response.json);
    const problem = data.error?.map((e) => e.msg).find(Boolean);
    if (!data.data?.output && problem) {
      throw new ProviderError("invalid_response", `Kagi FastGPT returned no answer: ${problem}`);
    }
    return toProviderAnswer({
      displayName: kagi.displayName,
      model: call.model,
      text: data.data?.output?.replace(LENTICULAR_MARKER, "[$1]"),
      sources: data.data?.references ?? [],
      http: response,
    });
  },
};
