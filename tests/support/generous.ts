/**
 * The only wall-clock bound a test may assert: far beyond what the work needs, so a loaded machine cannot
 * miss it. Tests prove order with events instead ("in parallel": the fake server held every request at once;
 * "did not wait": the call returned before the slow side answered; see tests/fakes/provider-server.ts).
 * Where a property is "by the deadline", this bound catches a deadline missed by an order of magnitude (one
 * ignored outright leaves the call waiting on a hang until the test times out); how late a deadline really
 * is on an idle machine is a benchmark figure (bench/README.md, `hung-provider`), never a test assertion.
 *
 * 10× the expected duration and at least 5 s: a busy 2-core machine (load average 12) stalls a process for
 * a few hundred milliseconds, not seconds.
 */
export function generous(expectedMs: number): number {
  return Math.max(10 * expectedMs, 5_000);
}
