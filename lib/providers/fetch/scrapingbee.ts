/**
 * ScrapingBee HTML API. The key travels in the query string: provider-client and the engine's failure
 * classification redact it from every message (tested).
 * Docs: https://www.scrapingbee.com/documentation/
 * Wire: GET {base}/api/v1/?api_key=<key>&url=<encoded>&render_js=false -> the page's HTML as the body;
 *   `Spb-Resolved-Url` header (final URL) is not read: provider-client returns the body only.
 * Its price and free tier: lib/providers/prices.ts.
 */
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { buildUrl, request } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { htmlDocument, requireApiKey } from "./adapter-kit";

export const scrapingbee: FetchProvider = {
  id: "scrapingbee",
  displayName: "ScrapingBee",
  keyEnv: ["SCRAPINGBEE_API_KEY"],
  baseUrlEnv: "SCRAPINGBEE_BASE_URL",
  defaultBaseUrl: "https://app.scrapingbee.com",
  docsUrl: "https://www.scrapingbee.com/documentation/",
  apiVersion: "v1",
  price: listedPrice("scrapingbee"),
  defaultTimeoutMs: 30_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, scrapingbee.displayName);
    const response = await request(
      buildUrl(call.baseUrl, "/api/v1/", { api_key: apiKey, url: call.url.toString(), render_js: false }),
      { headers: { accept: "text/html,*/*" }, signal: call.signal },
    );
    return htmlDocument(response.body, call.url.toString(), response, call.signal);
  },
};
