import type { App } from './app';

const SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/**
 * While closing, how often connections whose request has been answered are closed: a kept-alive one
 * (a browser's, a proxy's upstream pool) would otherwise hold the close until its keep-alive timeout.
 */
const IDLE_SWEEP_MS = 100;

/**
 * Closes the app on SIGTERM or SIGINT without dropping work (decision 0025): the port stops accepting;
 * every socket is closed, which socket.io clients retry, so they reconnect (behind a load balancer, to
 * another instance); requests under way get their answers, for at most `timeoutMs` before their
 * connections are cut; then the live gateway, the jobs, Redis and the database close, and the process
 * exits. A second signal exits at once.
 */
export function closeOnSignals(app: App, timeoutMs: number): void {
  let closing = false;

  const close = async (signal: NodeJS.Signals) => {
    app.log.info({ signal, timeoutMs }, 'shutting down: finishing the requests under way');
    // Closing gives up work a library started without waiting for it (socket.io's Redis adapter
    // unsubscribing from a Redis out of reach): that is logged, and must not turn an exit into a crash.
    process.on('unhandledRejection', (reason) =>
      app.log.warn({ err: reason }, 'shutting down: work left unfinished was given up'),
    );
    const sweep = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    const cutOff = setTimeout(() => {
      app.log.warn({ timeoutMs }, 'shutting down: cutting off the requests still under way');
      app.server.closeAllConnections();
    }, timeoutMs);
    try {
      await app.close();
      app.log.info('shut down');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    } finally {
      clearInterval(sweep);
      clearTimeout(cutOff);
    }
  };

  for (const signal of SIGNALS) {
    process.on(signal, () => {
      if (closing) {
        app.log.warn({ signal }, 'second signal: exiting at once');
        process.exit(1);
      }
      closing = true;
      void close(signal);
    });
  }
}
