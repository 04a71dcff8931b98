/**
 * Deadlines without leaks. AbortSignal.timeout() keeps its timer until it fires and AbortSignal.any()
 * keeps listeners on long-lived parents, so both are done by hand here: every timer is cleared and
 * every listener removed as soon as the work it guards is over.
 */

export interface LinkedAbort {
  signal: AbortSignal;
  /** Clears the timer and detaches from the parents; idempotent. */
  dispose(): void;
}

/** When each linked signal's own timer ends (epoch ms), its parents' deadlines included. */
const deadlines = new WeakMap<AbortSignal, number>();

/**
 * The epoch ms by which `signal` aborts at the latest, when it is one of linkedAbort's (or a child of one);
 * undefined for any other signal. Lets work that may wait (a send slot of a paced key) wait as long as the
 * deadline allows, and no longer.
 */
export const deadlineOf = (signal: AbortSignal | undefined): number | undefined =>
  signal === undefined ? undefined : deadlines.get(signal);

/**
 * A signal that aborts when any parent aborts (with the parent's reason) or after `timeoutMs`
 * (with a DOMException named "TimeoutError", which the provider HTTP client reports as a timeout).
 */
export function linkedAbort(
  parents: ReadonlyArray<AbortSignal | undefined>,
  timeoutMs: number,
  timeoutMessage: string,
): LinkedAbort {
  const controller = new AbortController();
  const attached: Array<{ parent: AbortSignal; onAbort: () => void }> = [];
  let timer: ReturnType<typeof setTimeout> | undefined;

  const dispose = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    for (const { parent, onAbort } of attached.splice(0)) parent.removeEventListener("abort", onAbort);
  };
  const abort = (reason: unknown) => {
    dispose();
    controller.abort(reason);
  };

  for (const parent of parents) {
    if (parent === undefined) continue;
    if (parent.aborted) {
      abort(parent.reason);
      return { signal: controller.signal, dispose };
    }
    const onAbort = () => abort(parent.reason);
    parent.addEventListener("abort", onAbort, { once: true });
    attached.push({ parent, onAbort });
  }
  timer = setTimeout(() => abort(new DOMException(timeoutMessage, "TimeoutError")), timeoutMs);
  const parentDeadlines = parents.map(deadlineOf).filter((at) => at !== undefined);
  deadlines.set(controller.signal, Math.min(Date.now() + timeoutMs, ...parentDeadlines));
  return { signal: controller.signal, dispose };
}

/**
 * Settles like `work`, or rejects with the signal's reason as soon as it aborts, whichever comes
 * first: the caller is never held up by work that ignores its signal. A late rejection of `work`
 * is absorbed (never unhandled) and a late result is dropped.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

export function isTimeout(reason: unknown): boolean {
  return reason instanceof Error && reason.name === "TimeoutError";
}
