/** The operator verb: providers and allowlist from env, engine errors mapped to service errors. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServiceError } from "@/lib/pipeline/errors";
import { fetchAsOperator, operatorFetchEntries } from "@/lib/services/fetch/fetch-as-operator";
import { formatFetchResult } from "@/scripts/format-fetch";
import { type Site, startSite } from "./site-server";

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
  it("offers the keyless steps with no configuration", () => {
    const ids = operatorFetchEntries({}).map((e) => e.provider.id);
    expect(ids).toEqual(["direct", "github", "reddit", "arxiv", "jina"]);
  });

  it("adds keyed providers whose key is set, with base URL overrides and settings", () => {
    const entries = operatorFetchEntries({
      SCRAPINGBEE_API_KEY: "bee-key",
      BRIGHTDATA_API_KEY: "bd-key",
      BRIGHTDATA_ZONE: "my_zone",
      FIRECRAWL_BASE_URL: "http://proxy.example/fc",
      JINA_API_KEY: " jina-key ",
    });
    const byId = new Map(entries.map((e) => [e.provider.id, e]));
    expect(byId.get("scrapingbee")?.apiKey).toBe("bee-key");
    expect(byId.get("brightdata")?.settings).toEqual({ zone: "my_zone" });
    expect(byId.get("jina")?.apiKey).toBe("jina-key");
    expect(byId.has("firecrawl")).toBe(false);
    expect(byId.get("direct")?.apiKey).toBeUndefined();
  });
});

describe("fetchAsOperator", () => {
  it("fetches an allowlisted loopback page and formats it for the CLI", async () => {
    const result = await fetchAsOperator({
      ctx: { env: { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" } },
      input: { url: `${site.url}/page`, providers: ["direct"] },
    });
    expect(result.provider).toBe("direct");
    const text = formatFetchResult(result);
    expect(text).toMatch(/^# Operator page\nhttp:\/\/127\.0\.0\.1:\d+\/page\n/);
    expect(text).toContain("provider: direct (markdown,");
    expect(text).toContain("attempted: direct");
  });

  it("refuses loopback under the default configuration, as invalid input", async () => {
    const error = await fetchAsOperator({ ctx: { env: {} }, input: { url: `${site.url}/page` } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ServiceError);
    expect((error as ServiceError).code).toBe("invalid_input");
    expect((error as ServiceError).message).toMatch(/127\.0\.0\.1/);
  });

  it("rejects providers that are unknown or need a key that is not set", async () => {
    await expect(
      fetchAsOperator({ ctx: { env: {} }, input: { url: "https://example.com/", providers: ["nope"] } }),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(
      fetchAsOperator({ ctx: { env: {} }, input: { url: "https://example.com/", providers: ["firecrawl"] } }),
    ).rejects.toThrow(/not available without a key: firecrawl/);
  });
});
