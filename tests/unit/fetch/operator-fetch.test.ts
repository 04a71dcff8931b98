/**
 * fetch as the operator (the verb with the operator's context): providers and allowlist from env, engine
 * errors mapped to service errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Env } from "@/lib/pipeline/capabilities";
import { ServiceError } from "@/lib/pipeline/errors";
import { operatorContext } from "@/lib/pipeline/operator-context";
import { withProviderSettings } from "@/lib/pipeline/providers/operator-providers";
import { tenantProviders } from "@/lib/pipeline/providers/tenant-providers";
import { fetchProviders } from "@/lib/providers/fetch";
import { fetchPage } from "@/lib/services/fetch/fetch-page";
import { toFetchResponse } from "@/lib/tools/responses";
import { tools } from "@/lib/tools/table";
import { type Site, startSite } from "./site-server";

/** The fetch steps the operator's context offers, its settings applied. */
async function operatorFetchEntries(env: Env) {
  const { available } = await tenantProviders(operatorContext(env, "cli"), fetchProviders);
  return withProviderSettings(available, env);
}

const fetchAsOperator = (env: Env, input: { url: string; providers?: string[] }) =>
  fetchPage({ ctx: operatorContext(env, "cli"), input });

let site: Site;
beforeAll(async () => {
  site = await startSite({
    "/page": {
      body: `<html><head><title>Operator page</title></head><body><article><p>${"Operator fetch text. ".repeat(30)}</p></article></body></html>`,
    },
  });
});
afterAll(async () => {
  await site.close();
});

describe("operatorFetchEntries", () => {
  it("offers the keyless steps with no configuration", async () => {
    const ids = (await operatorFetchEntries({})).map((e) => e.provider.id);
    expect(ids).toEqual(["direct", "github", "arxiv", "jina"]);
  });

  it("adds keyed providers whose key is set, with base URL overrides and settings", async () => {
    const entries = await operatorFetchEntries({
      SCRAPINGBEE_API_KEY: "bee-key",
      BRIGHTDATA_API_KEY: "bd-key",
      BRIGHTDATA_ZONE: "my_zone",
      FIRECRAWL_BASE_URL: "http://proxy.example/fc",
      JINA_API_KEY: " jina-key ",
      REDDIT_CLIENT_CREDENTIALS: "app-id:app-secret",
    });
    const byId = new Map(entries.map((e) => [e.provider.id, e]));
    expect(byId.get("scrapingbee")?.apiKey).toBe("bee-key");
    expect(byId.get("brightdata")?.settings).toEqual({ zone: "my_zone" });
    expect(byId.get("jina")?.apiKey).toBe("jina-key");
    expect(byId.get("reddit")?.apiKey).toBe("app-id:app-secret");
    expect(byId.has("firecrawl")).toBe(false);
    expect(byId.get("direct")?.apiKey).toBeUndefined();
  });
});

describe("fetch as the operator", () => {
  it("fetches an allowlisted loopback page and formats it as the tool's text", async () => {
    const result = await fetchAsOperator(
      { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" },
      { url: `${site.url}/page`, providers: ["direct"] },
    );
    expect(result.provider).toBe("direct");
    const text = tools.fetch.format(toFetchResponse(result));
    expect(text).toMatch(/^# Operator page\nSource: http:\/\/127\.0\.0\.1:\d+\/page\n/);
    expect(text).toContain("Fetched by direct as markdown");
  });

  it("refuses loopback under the default configuration, as invalid input", async () => {
    const error = await fetchAsOperator({}, { url: `${site.url}/page` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe("invalid_input");
    expect((error as ServiceError).message).toMatch(/127\.0\.0\.1/);
  });

  it("rejects providers that are unknown or need a key that is not set", async () => {
    await expect(
      fetchAsOperator({}, { url: "https://example.com/", providers: ["nope"] }),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(
      fetchAsOperator({}, { url: "https://example.com/", providers: ["firecrawl"] }),
    ).rejects.toThrow(/not available without a key: firecrawl/);
  });
});
