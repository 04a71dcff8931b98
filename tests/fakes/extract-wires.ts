/**
 * Firecrawl's JSON format (LLM extraction) on its v2 scrape endpoint, for the extract tool:
 * `startFakeProviders(EXTRACT_WIRES)`, then FIRECRAWL_BASE_URL = fake.baseUrlFor(FIRECRAWL_EXTRACT).
 * POST /v2/scrape with `formats: [{type: "json", schema, prompt?}]` answers {success, data: {json,
 * metadata}} (https://docs.firecrawl.dev/features/llm-extract): `json` is `scenario.payload.json`, else
 * the page's title under every string property of the schema. A request without the JSON format is a 400,
 * as the real API refuses a body it cannot read.
 */
import { bearer, type FakeWire, json } from "./provider-server";

export const FIRECRAWL_EXTRACT = "firecrawl-extract";

interface ScrapeBody {
  url?: string;
  formats?: Array<{ type?: string; schema?: { properties?: Record<string, { type?: string }> } }>;
}

export const EXTRACT_WIRES: Readonly<Record<string, FakeWire>> = {
  [FIRECRAWL_EXTRACT]: {
    method: "POST",
    path: "/v2/scrape",
    credential: bearer,
    render: ({ payload }, request) => {
      const body = request.body as ScrapeBody;
      const format = body.formats?.find((f) => f.type === "json");
      if (!format) return { ...json({ success: false, error: "formats: json expected" }), status: 400 };
      const given = (payload as { json?: unknown } | undefined)?.json;
      const filled = Object.fromEntries(
        Object.entries(format.schema?.properties ?? {}).map(([name, sub]) => [
          name,
          sub.type === "string" ? `Page ${body.url}` : null,
        ]),
      );
      return json({
        success: true,
        data: {
          json: given ?? filled,
          metadata: { title: "Fake page", sourceURL: body.url, statusCode: 200 },
        },
      });
    },
  },
};
