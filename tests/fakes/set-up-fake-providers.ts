import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { type FakeProviders, type FakeWire, startFakeProviders } from "./provider-server";

/**
 * Registers the hooks an engine test file needs: the fake provider server for the whole file (with
 * `extraWires`), scenarios and request logs reset before each test, and a check after each test that no
 * promise rejection went unhandled. Returns the server (usable once the file's tests run).
 */
export function setUpFakeProviders(extraWires: Readonly<Record<string, FakeWire>> = {}): FakeProviders {
  let current: FakeProviders | undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const server = () => {
    if (!current) throw new Error("the fake provider server is not running yet");
    return current;
  };

  beforeAll(async () => {
    current = await startFakeProviders(extraWires);
    process.on("unhandledRejection", onUnhandled);
  });
  afterAll(async () => {
    process.off("unhandledRejection", onUnhandled);
    await current?.close();
  });
  beforeEach(() => {
    server().resetScenarios();
    server().clearRequests();
  });
  afterEach(() => {
    expect(unhandled).toEqual([]);
  });

  return {
    get url() {
      return server().url;
    },
    baseUrlFor: (id) => server().baseUrlFor(id),
    setScenario: (id, scenario) => server().setScenario(id, scenario),
    resetScenarios: () => server().resetScenarios(),
    requests: (id) => server().requests(id),
    clearRequests: () => server().clearRequests(),
    events: () => server().events(),
    maxInFlight: () => server().maxInFlight(),
    seen: (id, kind, count) => server().seen(id, kind, count),
    close: () => server().close(),
  };
}
