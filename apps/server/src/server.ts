import { createServer, type AddressInfo } from 'node:net';
import pino, { type DestinationStream } from 'pino';
import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { formatDemoLogins, seedDemoData, type DemoLogin } from './db/seed';
import { closeOnSignals } from './shutdown';

/** Why the server cannot listen, as the variable to change; null for a failure that is not the operator's. */
function listenFailure(error: unknown, { host, port }: Config): ConfigError | null {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `Port ${port} is already in use. Set PORT to another port (PORT=${port < 65535 ? port + 1 : 3000} npm start).`,
      );
    case 'EACCES':
      return new ConfigError(
        `Port ${port} may only be used by root. Set PORT to 1024 or above (PORT=3000 npm start).`,
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `${host} is not an address of this machine. Set HOST to one of its addresses, or 0.0.0.0 for all.`,
      );
    default:
      return null;
  }
}

/** Takes the port and lets go at once: a taken port stops the start before the database is seeded. */
function assertCanListen(config: Config): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => reject(listenFailure(error, config) ?? error));
    probe.listen({ host: config.host, port: config.port }, () => probe.close(() => resolve()));
  });
}

/** Where the data is; a PostgreSQL URL is shown without its user and password. */
function describeDatabase({ database }: Config): string {
  if (database.driver === 'postgres') {
    const url = new URL(database.url);
    return `PostgreSQL at ${url.host}${url.pathname}`;
  }
  return database.dataDir === 'memory://'
    ? 'PGlite in memory, gone when the server stops'
    : `PGlite in ${database.dataDir} (DATABASE_URL for PostgreSQL)`;
}

/** The few lines a newcomer needs once the server is up: where it is, its database, how to log in. */
function startBanner(config: Config, port: number, logins: DemoLogin[] | null): string {
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  return [
    '',
    `Stagedoor is running at http://${shownHost}:${port}`,
    `Database: ${describeDatabase(config)}`,
    ...(logins ? [formatDemoLogins(logins)] : []),
    '',
  ].join('\n');
}

async function start(): Promise<void> {
  const config = loadConfig();
  // Port 0 asks for any free port: nothing to check.
  if (config.port !== 0) await assertCanListen(config);
  const app = await buildApp(config);

  closeOnSignals(app, config.shutdownTimeoutMs);

  const logins = config.seedDemo ? await seedDemoData(app.deps) : null;

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    // Another program took the port since it was checked.
    await app.close();
    throw listenFailure(error, config) ?? error;
  }
  const { port } = app.server.address() as AddressInfo;
  // pino writes the log asynchronously: printed straight to stdout, the banner could come before the
  // lines logged so far (Fastify's "Server listening at"). Through the log's destination, it comes last.
  const logDestination = (app.log as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  (logDestination ?? process.stdout).write(`${startBanner(config, port, logins)}\n`);
}

start().catch((error: unknown) => {
  // A configuration problem is the operator's to fix: show the message, not a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
