/**
 * Zyte API (HTTP request mode: no browser rendering).
 * Docs: https://docs.zyte.com/zyte-api/usage/http.html ; reference https://docs.zyte.com/zyte-api/usage/reference.html
 * Wire: POST {base}/v1/extract, HTTP Basic with the key as user name and an empty password, JSON {url,
 *   httpResponseBody: true, httpResponseHeaders: true} -> {url, statusCode, httpResponseBody (Base64),
 *   httpResponseHeaders: [{name, value}]}; the body goes through our own extraction (HTML, PDF, text).
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import { documentFromBody } from "@/lib/engine/fetch/extract/document";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { assertTargetOk, requireApiKey } from "./adapter-kit";

const responseSchema = z.object({
  url: z.string().nullish(),
  statusCode: z.number().nullish(),
  httpResponseBody: z.string(),
  httpResponseHeaders: z.array(z.object({ name: z.string(), value: z.string() })).nullish(),
});

export const zyte: FetchProvider = {
  id: "zyte",
  displayName: "Zyte API",
  keyEnv: ["ZYTE_API_KEY"],
  baseUrlEnv: "ZYTE_BASE_URL",
  defaultBaseUrl: "https://api.zyte.com",
  docsUrl: "https://docs.zyte.com/zyte-api/usage/reference.html",
  apiVersion: "v1",
  price: listedPrice("zyte"),
  defaultTimeoutMs: 60_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, zyte.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/v1/extract"), {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${apiKey}:`).toString("base64")}` },
      json: { url: call.url.toString(), httpResponseBody: true, httpResponseHeaders: true },
      maxBytes: 20 * 1024 * 1024,
      signal: call.signal,
    });
    const body = parseResponse(responseSchema, response.json);
    assertTargetOk(body.statusCode, zyte.displayName);
    const finalUrl = body.url ?? call.url.toString();
    const contentType =
      body.httpResponseHeaders?.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "";
    const document = await documentFromBody({
      body: Buffer.from(body.httpResponseBody, "base64"),
      contentType,
      url: finalUrl,
      signal: call.signal,
    });
    return { ...document, finalUrl, httpStatus: response.status, bytes: response.bytes };
  },
};
