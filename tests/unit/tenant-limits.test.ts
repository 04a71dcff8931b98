/**
 * SEARCHMUX_OPERATOR_QUOTA_*, SEARCHMUX_RATE_LIMIT_MAX_RPM, SEARCHMUX_MAX_TOKENS_PER_TENANT,
 * SEARCHMUX_MAX_CRAWLS_PER_TENANT, SEARCHMUX_CRAWL_MAX_REQUESTS and SEARCHMUX_DEFAULT_MONTHLY_CAP_USD as
 * configuration.
 */
import { describe, expect, it } from "vitest";
import { loadConfig, tenantLimits } from "@/lib/config";

describe("tenant limits configuration", () => {
  it("has a rate ceiling and a token cap by default, and reads numbers and `unlimited`", () => {
    expect(tenantLimits({})).toEqual({
      operatorQuotas: [],
      maxRateLimitRpm: 600,
      maxTokensPerTenant: 50,
      maxCrawlsPerTenant: 3,
      crawlMaxRequests: 1_000,
      defaultMonthlyCapUsd: 10,
    });
    expect(
      loadConfig({
        SEARCHMUX_OPERATOR_QUOTA_USD_DAY: " 0.5 ",
        SEARCHMUX_OPERATOR_QUOTA_REQUESTS_MONTH: "UNLIMITED",
        SEARCHMUX_RATE_LIMIT_MAX_RPM: "240",
        SEARCHMUX_MAX_TOKENS_PER_TENANT: "5",
        SEARCHMUX_MAX_CRAWLS_PER_TENANT: "1",
        SEARCHMUX_CRAWL_MAX_REQUESTS: "200",
        SEARCHMUX_DEFAULT_MONTHLY_CAP_USD: "25.5",
      }).limits,
    ).toEqual({
      operatorQuotas: [{ metric: "usd", period: "day", limit: 0.5 }],
      maxRateLimitRpm: 240,
      maxTokensPerTenant: 5,
      maxCrawlsPerTenant: 1,
      crawlMaxRequests: 200,
      defaultMonthlyCapUsd: 25.5,
    });
    expect(tenantLimits({ SEARCHMUX_DEFAULT_MONTHLY_CAP_USD: "Unlimited" }).defaultMonthlyCapUsd).toBeNull();
    expect(tenantLimits({ SEARCHMUX_DEFAULT_MONTHLY_CAP_USD: "0" }).defaultMonthlyCapUsd).toBe(0);
  });

  it.each([
    ["SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY", "lots", 'a whole number of at least 0 or "unlimited"'],
    ["SEARCHMUX_OPERATOR_QUOTA_REQUESTS_MONTH", "1.5", 'a whole number of at least 0 or "unlimited"'],
    ["SEARCHMUX_OPERATOR_QUOTA_USD_DAY", "-1", 'a number of at least 0 or "unlimited"'],
    ["SEARCHMUX_OPERATOR_QUOTA_USD_MONTH", "$20", 'a number of at least 0 or "unlimited"'],
    ["SEARCHMUX_RATE_LIMIT_MAX_RPM", "0", "a whole number of at least 1"],
    ["SEARCHMUX_MAX_TOKENS_PER_TENANT", "ten", "a whole number of at least 1"],
    ["SEARCHMUX_MAX_CRAWLS_PER_TENANT", "0", "a whole number of at least 1"],
    ["SEARCHMUX_CRAWL_MAX_REQUESTS", "5", "a whole number of at least 10"],
    ["SEARCHMUX_DEFAULT_MONTHLY_CAP_USD", "-5", 'a number of at least 0 or "unlimited"'],
    ["SEARCHMUX_DEFAULT_MONTHLY_CAP_USD", "ten", 'a number of at least 0 or "unlimited"'],
  ])("stops the configuration on %s=%s, naming the variable", (name, value, expected) => {
    expect(() => loadConfig({ [name]: value })).toThrow(`${name} must be ${expected}, not "${value}"`);
  });
});
