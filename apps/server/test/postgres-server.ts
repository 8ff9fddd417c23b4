import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { chown, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { isRunning } from './child-process';
import { freePort } from './free-port';

const run = promisify(execFile);
const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';
const READY_TIMEOUT_MS = 30_000;

interface PostgresServer {
  /** Connection URL of the server's `postgres` database, for the superuser `postgres`. */
  url: string;
  /** Stops the server the way a crash would (`pg_ctl stop -m immediate`): its data stays for `restart`. */
  stopImmediately(): Promise<void>;
  /** Starts a stopped server again on the same data and port; resolves once it answers queries. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

interface PostgresOptions {
  /**
   * Keep `synchronous_commit` on, so a commit survives the server being killed (`stopImmediately`).
   * `fsync` stays off either way: only the machine itself crashing would lose what the OS holds.
   */
  crashSafe?: boolean;
}

/** A throwaway PostgreSQL server in a temporary directory, listening on 127.0.0.1 only. */
export async function startPostgresServer({
  crashSafe = false,
}: PostgresOptions = {}): Promise<PostgresServer> {
  if (!existsSync(path.join(POSTGRES_BIN, 'initdb'))) {
    throw new Error(
      `PostgreSQL 15 binaries not found in ${POSTGRES_BIN}: the server tests need them ` +
        '(Debian: apt-get install postgresql; or set POSTGRES_BIN to their directory).',
    );
  }
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), 'stagedoor-pg-'));
  const dataDir = path.join(dir, 'data');
  // initdb and postgres refuse to run as root: as root, run them as the postgres user.
  const asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  const command = (binary: string, args: string[]): [string, string[]] => {
    const [first, ...rest] = [...asPostgres, path.join(POSTGRES_BIN, binary), ...args];
    return [first ?? binary, rest];
  };

  if (asPostgres.length > 0) {
    const ids = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    await chown(dir, Number(ids[0].stdout), Number(ids[1].stdout));
  }
  // UTF8 as a production server has: with the C locale's default (SQL_ASCII), text functions such as
  // the event search's translate() would work on bytes, not characters.
  const initdb = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '--locale=C', '-E', 'UTF8'];
  await run(...command('initdb', initdb));

  const logFile = path.join(tmpdir(), `${path.basename(dir)}.log`);
  const settings = [
    'listen_addresses=127.0.0.1',
    // Durability is worthless for a database deleted after the run; speed is not.
    'fsync=off',
    ...(crashSafe ? [] : ['synchronous_commit=off']),
    'full_page_writes=off',
  ];
  const args = ['-D', dataDir, '-p', String(port), '-k', dir, ...settings.flatMap((s) => ['-c', s])];
  const log = createWriteStream(logFile);
  const spawnServer = () => {
    const child = spawn(...command('postgres', args), { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
    return child;
  };
  let server = spawnServer();

  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const stopServer = async (mode: 'fast' | 'immediate') => {
    if (!isRunning(server)) return;
    await run(...command('pg_ctl', ['stop', '-D', dataDir, '-m', mode, '-w'])).catch(() =>
      server.kill('SIGKILL'),
    );
    await exited(server);
  };
  const stop = async () => {
    await stopServer('fast');
    log.end();
    await rm(dir, { recursive: true, force: true });
    await rm(logFile, { force: true });
  };
  const ready = async () => {
    try {
      await waitUntilReady(url, server);
    } catch (error) {
      const output = await readFile(logFile, 'utf8').catch(() => '');
      await stop();
      throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${output}`);
    }
  };

  await ready();
  return {
    url,
    stopImmediately: () => stopServer('immediate'),
    restart: async () => {
      if (isRunning(server)) throw new Error('PostgreSQL is still running');
      server = spawnServer();
      await ready();
    },
    stop,
  };
}

async function waitUntilReady(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!isRunning(server)) throw new Error(`postgres exited (${server.exitCode ?? server.signalCode})`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query('select 1');
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

function exited(child: ChildProcess): Promise<void> {
  return isRunning(child) ? new Promise((resolve) => child.once('exit', () => resolve())) : Promise.resolve();
}
