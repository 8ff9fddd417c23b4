import type { FastifyBaseLogger } from 'fastify';

/**
 * Keeps the promises of work nobody awaits (started by socket events, timers, or after a request was
 * answered), so closing the app can wait for them before it closes the database and Redis under them.
 * A failure is logged under `what`: nobody else awaits them.
 */
export class TaskTracker {
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly what: string,
  ) {}

  track(task: Promise<unknown>): void {
    const tracked = task.then(
      () => undefined,
      (error: unknown) => this.log.error({ err: error }, `${this.what}: background work failed`),
    );
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  /** Resolves once no work is running, including work started while waiting. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
