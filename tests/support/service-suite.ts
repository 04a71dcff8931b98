import { afterAll, beforeAll, beforeEach } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { type FakeProviders, type FakeWire, startFakeProviders } from "@/tests/fakes/provider-server";
import type { DatabaseTarget, TestDatabase } from "./database";
import { testPlatform } from "./platform";
import { twoTenants } from "./two-tenants";

/** What a suite of service tests works with; filled in before its first test. */
export interface ServiceSuite {
  database: TestDatabase;
  fake: FakeProviders;
  platform: Platform;
  /** Tenants "A" and "B", each with a full-scope operator context. */
  a: TenantContext;
  b: TenantContext;
}

export interface ServiceSuiteOptions {
  /** Wires besides the search providers' (answer, papers, fetch). */
  wires?: Readonly<Record<string, FakeWire>>;
  /** The operator's environment, pointing providers at the fake server. */
  env(fake: FakeProviders): Record<string, string>;
  /** More of the platform (breakers with short cooldowns, say). */
  platform?: Partial<Platform>;
}

/** `<ID>_BASE_URL` of each provider, pointing at the fake server. */
export function fakeBaseUrls(fake: FakeProviders, ids: readonly string[]): Record<string, string> {
  return Object.fromEntries(ids.map((id) => [`${id.toUpperCase()}_BASE_URL`, fake.baseUrlFor(id)]));
}

/**
 * The set-up of the service suites that look across two tenants: a fresh database of `target`, the fake
 * provider server, a platform whose env points at it, tenants A and B; fake scenarios and recorded requests
 * reset before each test; everything closed after the suite. Call it in a describe block.
 */
export function serviceSuite(target: DatabaseTarget, options: ServiceSuiteOptions): ServiceSuite {
  const suite = {} as ServiceSuite;
  beforeAll(async () => {
    suite.database = await target.create();
    suite.fake = await startFakeProviders(options.wires);
    suite.platform = testPlatform(suite.database.db, { ...options.platform, env: options.env(suite.fake) });
    Object.assign(suite, await twoTenants(suite.platform));
  });
  afterAll(async () => {
    await suite.fake?.close();
    await suite.database?.cleanup();
  });
  beforeEach(() => {
    suite.fake.resetScenarios();
    suite.fake.clearRequests();
  });
  return suite;
}
