import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { freePort } from '../test/free-port';
import { startServerProcess } from '../test/server-process';
import { freshDatabaseUrl } from '../test/test-app';

const SERVER_ROOT = new URL('..', import.meta.url).pathname;

/** `npm start`'s server (src/server.ts under tsx) with `env`, run until it exits by itself. */
function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: SERVER_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
}

describe('npm start', () => {
  it('names the variable to set when its port is taken, and exits 1 before opening the database', async () => {
    const port = await freePort();
    const holder = createServer();
    await listen(holder, port);
    onTestFinished(() => void holder.close());
    const dataDir = path.join(await mkdtemp(path.join(inject('tempRoot'), 'port-taken-')), 'data');

    const { code, output } = await runUntilExit({ HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir });

    expect(output).toBe(
      `Port ${port} is already in use. Set PORT to another port (PORT=${port + 1} npm start).\n`,
    );
    expect(code).toBe(1);
    expect(existsSync(path.join(dataDir, 'db')), 'no database was created').toBe(false);
  });

  it(
    'ends its output with a banner (URL, database, demo logins) that requests in development do not bury',
    { timeout: 120_000 },
    async () => {
      const dataDir = await mkdtemp(path.join(inject('tempRoot'), 'banner-'));
      const databaseUrl = inject('databaseDriver') === 'postgres' ? new URL(await freshDatabaseUrl()) : null;
      const server = await startServerProcess({
        NODE_ENV: 'development',
        SEED_DEMO: '1',
        DATA_DIR: dataDir,
        ...(databaseUrl && { DATABASE_URL: databaseUrl.href }),
      });
      onTestFinished(() => server.stop());

      for (const url of ['/api/health', '/api/events', '/no-such-page'])
        await fetch(`${server.origin}${url}`);
      // Time for a request's log line, had it been written, to come through the pipe.
      await new Promise((resolve) => setTimeout(resolve, 500));

      const lines = server.output().trimEnd().split('\n');
      const start = `Stagedoor is running at ${server.origin}`;
      expect(lines).toContain(start);
      const banner = lines.slice(lines.indexOf(start));
      expect(banner[1]).toBe(
        databaseUrl
          ? `Database: PostgreSQL at ${databaseUrl.host}${databaseUrl.pathname}`
          : `Database: PGlite in ${path.join(dataDir, 'db')} (DATABASE_URL for PostgreSQL)`,
      );
      expect(banner[2]).toBe('Demo accounts (SEED_DEMO=0 to start empty):');
      expect(banner.slice(3).join('\n')).toContain('maya@demo.stagedoor.test    stagedoor-demo');
      // After the log's lines so far, and no request's line after it.
      expect(banner.join('\n')).not.toMatch(/Server listening|request/);
    },
  );
});
