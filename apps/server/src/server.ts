import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { formatDemoLogins, seedDemoData } from './db/seed';
import { closeOnSignals } from './shutdown';

async function start(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp(config);

  closeOnSignals(app, config.shutdownTimeoutMs);

  if (config.seedDemo) {
    const logins = await seedDemoData(app.deps);
    if (logins) console.info(formatDemoLogins(logins));
  }

  await app.listen({ host: config.host, port: config.port });
  const { port } = app.server.address() as AddressInfo;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  console.info(`Stagedoor is running at http://${shownHost}:${port}`);
}

start().catch((error: unknown) => {
  // A configuration problem is the operator's to fix: show the message, not a stack trace.
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
