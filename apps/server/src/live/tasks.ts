import type { FastifyBaseLogger } from 'fastify';

/**
 * Keeps the promises of work started by socket events and timers, so closing the app can wait for them
 * before it closes the database and Redis under them. A failure is logged: nobody else awaits them.
 */
export class TaskTracker {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  track(task: Promise<unknown>): void {
    const tracked = task.then(
      () => undefined,
      (error: unknown) => this.log.error({ err: error }, 'live: background work failed'),
    );
    this.running.add(tracked);
    void tracked.finally(() => this.running.delete(tracked));
  }

  /** Resolves once no work is running, including work started while waiting. */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }
}
