/**
 * A check of a domain route (the key test, `providers verify`) fetches the route's own probe page: a page
 * elsewhere (example.com) plans no step for it, so the check would report "ok" without calling it.
 */
import { describe, expect, it } from "vitest";
import { fetchProviders } from "@/lib/providers/fetch";

const domainRoutes = fetchProviders.filter((provider) => provider.handles !== undefined);

describe("the probe page of each domain route", () => {
  it.each(domainRoutes.map((provider) => [provider.id, provider] as const))(
    "%s handles its own",
    (_, route) => {
      expect(route.probeUrl).toBeDefined();
      const url = new URL(route.probeUrl ?? "");
      expect(route.handles?.(url)).toBe(true);
      expect(route.refuses?.(url)).toBeUndefined();
    },
  );
});
