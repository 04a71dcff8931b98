/**
 * The crawl's work in flight (page visits, the sitemap seeding), a few tasks at a time. A task never
 * rejects: the first unexpected error (a refused start) is kept, stops the others through `halt` and is
 * thrown once they are all done, so no task is left running behind a failed crawl.
 */
export class TaskPool {
  private readonly inflight = new Set<Promise<void>>();
  private failure: unknown;

  constructor(private readonly halt: AbortController) {}

  get size(): number {
    return this.inflight.size;
  }

  launch(work: () => Promise<void>): void {
    const task = work()
      .catch((error: unknown) => this.fail(error))
      .finally(() => this.inflight.delete(task));
    this.inflight.add(task);
  }

  /** Keeps the first failure and stops the other tasks. */
  fail(error: unknown): void {
    this.failure ??= error;
    this.halt.abort(error);
  }

  /** Waits for any one task to end. */
  any(): Promise<void> {
    return Promise.race(this.inflight);
  }

  /** Waits for every task to end. */
  async drain(): Promise<void> {
    await Promise.all(this.inflight);
  }

  /** Throws the kept failure, if any. */
  throwIfFailed(): void {
    if (this.failure !== undefined) throw this.failure;
  }
}
