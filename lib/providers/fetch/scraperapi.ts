/**
 * ScraperAPI. The key travels in the query string and is redacted from every message (tested).
 * Docs: https://docs.scraperapi.com/making-requests/api-endpoint-method
 * Wire: GET {base}/?api_key=<key>&url=<encoded> -> the page's HTML as the body (non-2xx on failure;
 *   failed requests are not charged).
 * Its price and free tier: lib/providers/prices.ts.
 */
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { buildUrl, request } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { htmlDocument, requireApiKey } from "./adapter-kit";

export const scraperapi: FetchProvider = {
  id: "scraperapi",
  displayName: "ScraperAPI",
  keyEnv: ["SCRAPERAPI_API_KEY"],
  baseUrlEnv: "SCRAPERAPI_BASE_URL",
  defaultBaseUrl: "https://api.scraperapi.com",
  docsUrl: "https://docs.scraperapi.com/making-requests/api-endpoint-method",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("scraperapi"),
  defaultTimeoutMs: 60_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, scraperapi.displayName);
    const response = await request(
      buildUrl(call.baseUrl, "/", { api_key: apiKey, url: call.url.toString() }),
      {
        headers: { accept: "text/html,*/*" },
        signal: call.signal,
      },
    );
    return htmlDocument(response.body, call.url.toString(), response);
  },
};
