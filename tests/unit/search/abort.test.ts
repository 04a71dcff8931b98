import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { isTimeout, linkedAbort, raceAbort } from "@/lib/engine/shared/abort";

const activeTimers = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe("linkedAbort", () => {
  it("aborts with a TimeoutError after the timeout and leaves nothing behind", async () => {
    const parent = new AbortController();
    const linked = linkedAbort([parent.signal], 20, "too slow");
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(linked.signal.aborted).toBe(true);
    expect(isTimeout(linked.signal.reason)).toBe(true);
    expect(getEventListeners(parent.signal, "abort")).toHaveLength(0);
  });

  it("follows a parent's abort and its reason", () => {
    const parent = new AbortController();
    const linked = linkedAbort([undefined, parent.signal], 10_000, "unused");
    parent.abort(new Error("client went away"));
    expect(linked.signal.reason).toEqual(new Error("client went away"));
    expect(getEventListeners(parent.signal, "abort")).toHaveLength(0);
  });

  it("starts aborted when a parent already is", () => {
    const linked = linkedAbort([AbortSignal.abort("gone")], 10_000, "unused");
    expect(linked.signal.aborted).toBe(true);
    expect(linked.signal.reason).toBe("gone");
  });

  it("dispose clears the timer and detaches from the parents", () => {
    const parent = new AbortController();
    const before = activeTimers();
    const linked = linkedAbort([parent.signal], 60_000, "unused");
    expect(activeTimers()).toBe(before + 1);
    linked.dispose();
    linked.dispose();
    expect(activeTimers()).toBe(before);
    expect(getEventListeners(parent.signal, "abort")).toHaveLength(0);
    expect(linked.signal.aborted).toBe(false);
  });
});

describe("raceAbort", () => {
  it("settles like the work when it finishes first, detaching its listener", async () => {
    const controller = new AbortController();
    await expect(raceAbort(Promise.resolve(42), controller.signal)).resolves.toBe(42);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("rejects with the abort reason without waiting for work that never ends", async () => {
    const controller = new AbortController();
    const race = raceAbort(new Promise<never>(() => {}), controller.signal);
    controller.abort(new DOMException("late", "TimeoutError"));
    await expect(race).rejects.toMatchObject({ name: "TimeoutError" });
  });

  it("absorbs a rejection that arrives after the abort", async () => {
    const controller = new AbortController();
    let fail: (error: Error) => void = () => {};
    const work = new Promise<never>((_, reject) => {
      fail = reject;
    });
    const race = raceAbort(work, controller.signal);
    controller.abort("stop");
    await expect(race).rejects.toBe("stop");
    fail(new Error("late failure"));
    await new Promise((resolve) => setTimeout(resolve, 10));
  });
});
