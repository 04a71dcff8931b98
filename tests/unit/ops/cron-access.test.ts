import { describe, expect, it } from "vitest";
import { cronAccess } from "@/lib/services/ops/cron-access";

describe("cron access (CRON_SECRET)", () => {
  const env = { CRON_SECRET: "s3cret-value-of-the-operator", NODE_ENV: "production" };

  it("allows exactly the configured secret", () => {
    expect(cronAccess("s3cret-value-of-the-operator", env)).toBe("allowed");
    for (const bearer of [null, "", "s3cret-value-of-the-operato", "s3cret-value-of-the-operatorX"]) {
      expect(cronAccess(bearer, env)).toBe("unauthorized");
    }
  });

  it("refuses everything in production while no secret is set, allows local runs in development", () => {
    for (const secret of [undefined, "", "  "]) {
      expect(cronAccess("anything", { CRON_SECRET: secret, NODE_ENV: "production" })).toBe("not_configured");
      expect(cronAccess(null, { CRON_SECRET: secret, NODE_ENV: "development" })).toBe("allowed");
    }
  });
});
