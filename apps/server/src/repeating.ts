import type { FastifyInstance } from 'fastify';

/**
 * Runs `run` every `intervalMs` on this instance, one run at a time, until the app closes (which waits
 * for a run under way). A failed run is logged; the next one comes as usual.
 */
export function runEvery(
  app: FastifyInstance,
  name: string,
  intervalMs: number,
  run: (now: Date) => Promise<unknown>,
): void {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = run(new Date())
      .catch((error: unknown) => app.log.error({ err: error }, `${name} run failed`))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
