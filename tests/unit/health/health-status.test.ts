import { describe, expect, it } from "vitest";
import { healthStatus, providerState } from "@/lib/services/health/health-status";

describe("provider health in one word", () => {
  it("is decided by the success rate, never healthy at 0 %", () => {
    expect(healthStatus(4, 0)).toBe("failing");
    expect(healthStatus(10, 0.49)).toBe("failing");
    expect(healthStatus(10, 0.5)).toBe("degraded");
    expect(healthStatus(100, 0.94)).toBe("degraded");
    expect(healthStatus(100, 0.95)).toBe("healthy");
    expect(healthStatus(1, 1)).toBe("healthy");
  });

  it("has no data without calls", () => {
    expect(healthStatus(0, null)).toBe("no_data");
    expect(healthStatus(0, 0)).toBe("no_data");
  });

  it("says paused or probing while the breaker holds calls back, else the health", () => {
    expect(providerState("open", "healthy")).toBe("paused");
    expect(providerState("half_open", "failing")).toBe("probing");
    expect(providerState("closed", "failing")).toBe("failing");
    expect(providerState("closed", "no_data")).toBe("no_data");
  });
});
