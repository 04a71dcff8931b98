/**
 * ScraperAPI. The key travels in the query string and is redacted from every message (tested).
 * Docs: https://docs.scraperapi.com/making-requests/api-endpoint-method
 * Wire: GET {base}/?api_key=<key>&url=<encoded> -> the page's HTML as the body. ScraperAPI retries a
 *   failing target for up to 70 seconds before it answers 500 (not charged; 200 and 404 are), and asks
 *   clients to wait that long: https://docs.scraperapi.com/responses-and-formats/api-status-codes
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
  /** ScraperAPI's retry window (70 s) plus a margin for the answer to arrive. */
  defaultTimeoutMs: 75_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, scraperapi.displayName);
    const response = await request(
      buildUrl(call.baseUrl, "/", { api_key: apiKey, url: call.url.toString() }),
      {
        headers: { accept: "text/html,*/*" },
        signal: call.signal,
      },
    );
    return htmlDocument(response.body, call.url.toString(), response, call.signal);
  },
};
