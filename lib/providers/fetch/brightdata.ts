/**
 * Bright Data Web Unlocker (direct API access).
 * Docs: https://docs.brightdata.com/api-reference/rest-api/unlocker/unlock-website
 * Wire: POST {base}/request, `Authorization: Bearer <key>`, JSON {zone, url, format: "raw"} -> the page's
 *   HTML as the body. The zone is account-specific: BRIGHTDATA_ZONE (default "web_unlocker1", the name
 *   the dashboard gives the first Unlocker zone).
 * Its price and free tier: lib/providers/prices.ts.
 */
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { buildUrl, request } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { htmlDocument, requireApiKey } from "./adapter-kit";

const DEFAULT_ZONE = "web_unlocker1";

export const brightdata: FetchProvider = {
  id: "brightdata",
  displayName: "Bright Data Web Unlocker",
  keyEnv: ["BRIGHTDATA_API_KEY"],
  baseUrlEnv: "BRIGHTDATA_BASE_URL",
  defaultBaseUrl: "https://api.brightdata.com",
  docsUrl: "https://docs.brightdata.com/api-reference/rest-api/unlocker/unlock-website",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("brightdata"),
  defaultTimeoutMs: 60_000,
  settingsEnv: { zone: "BRIGHTDATA_ZONE" },

  async fetch(call) {
    const apiKey = requireApiKey(call, brightdata.displayName);
    const response = await request(buildUrl(call.baseUrl, "/request"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, accept: "text/html,*/*" },
      json: { zone: call.settings.zone ?? DEFAULT_ZONE, url: call.url.toString(), format: "raw" },
      signal: call.signal,
    });
    return htmlDocument(response.body, call.url.toString(), response, call.signal);
  },
};
