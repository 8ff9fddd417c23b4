import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../server/test/free-port';

const serverEntry = new URL('../../../server/dist/server.js', import.meta.url).pathname;

export interface RunningServer {
  baseURL: string;
  /** The server's DATA_DIR: its mail, unsent to any SMTP server, is written in `outbox/` there. */
  dataDir: string;
  /** What the server logged so far, for a failing journey to show. */
  logs: () => string;
  stop: () => Promise<void>;
}

/**
 * How long a server may take to answer its health check: seeding the demo data (SEED_DEMO=1) took 44 s
 * on this 2-core machine while other test runs shared it.
 */
const HEALTH_WAIT_MS = 120_000;

async function waitForHealth(baseURL: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + HEALTH_WAIT_MS;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy in ${HEALTH_WAIT_MS / 1000} s:\n${output()}`);
}

/**
 * Starts the production build of the server (the artefact `npm start` runs) on a free port and a
 * throwaway data dir; `env` adds operator settings.
 */
export async function startBuiltServer(env: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(serverEntry)) throw new Error(`${serverEntry} is missing: run "npm run build" first`);
  const dataDir = await mkdtemp(join(tmpdir(), 'stagedoor-e2e-'));
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  let log = '';
  const server = spawn(process.execPath, [serverEntry], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      PUBLIC_URL: baseURL,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: '0',
      LOG_LEVEL: 'warn',
      // Browsers on one machine reach each other over loopback; no STUN server is needed or reachable.
      ICE_SERVERS: '[]',
      // The journeys play dozens of people, all from 127.0.0.1; the limit itself is a server test.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  server.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseURL, server, () => log);
  } catch (error) {
    // A server that never became healthy is not left running, nor its data dir behind.
    await stop();
    throw error;
  }

  return { baseURL, dataDir, logs: () => log, stop };
}
