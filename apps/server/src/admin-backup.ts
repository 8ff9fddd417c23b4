import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { UsageError } from './admin-commands';
import { PGLITE_EXTENSIONS } from './db/database';
import type { Config } from './config';

/** The first bytes of a gzip stream: PGlite writes its backups gzipped, but reads a plain tar too. */
const GZIP_MAGIC = [0x1f, 0x8b];

/** Whether the command line names a command of this file, which must run with no server open on the data. */
export function isDatabaseCommand(args: string[]): boolean {
  return args[0] === 'backup' || args[0] === 'restore';
}

/**
 * `backup <file>` and `restore <file>` for the embedded database (decision 0025). Both open PGlite's
 * files themselves: the server must be stopped, since two processes writing one PGlite would corrupt
 * it. PostgreSQL is backed up with its own tools (docs/deploy.md).
 */
export async function runDatabaseCommand(config: Config, args: string[]): Promise<string> {
  const [command, file, ...rest] = args;
  if (!file || rest.length > 0) throw new UsageError(`Usage: npm run admin -- ${command} <file>`);
  const { database } = config;
  if (database.driver === 'postgres') {
    const tool = command === 'backup' ? 'pg_dump' : 'pg_restore';
    throw new UsageError(`DATABASE_URL names a PostgreSQL server: use ${tool} (docs/deploy.md).`);
  }
  if (database.dataDir.startsWith('memory://')) throw new UsageError('An in-memory database has no files.');
  return command === 'backup' ? backup(database.dataDir, file) : restore(database.dataDir, file);
}

async function backup(dataDir: string, file: string): Promise<string> {
  if (!hasDatabase(dataDir)) throw new UsageError(`There is no database in ${dataDir}.`);
  const client = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS });
  let dump: Blob;
  try {
    // Written out to its files first, so the copy needs no recovery when a server starts from it.
    await client.exec('CHECKPOINT');
    dump = await client.dumpDataDir('gzip');
  } finally {
    await client.close();
  }
  // Written beside and renamed: a backup cut short never takes the place of an earlier one.
  const partial = `${file}.partial`;
  await mkdir(path.dirname(path.resolve(file)), { recursive: true });
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
  await rename(partial, file);
  return `Backed up ${dataDir} to ${file} (${(dump.size / 1_000_000).toFixed(1)} MB).`;
}

async function restore(dataDir: string, file: string): Promise<string> {
  if (hasDatabase(dataDir)) {
    throw new UsageError(`${dataDir} already holds a database: move it away first, then restore.`);
  }
  const bytes = await readFile(file);
  const gzipped = GZIP_MAGIC.every((byte, index) => bytes[index] === byte);
  await mkdir(dataDir, { recursive: true });
  try {
    const client = await PGlite.create(dataDir, {
      extensions: PGLITE_EXTENSIONS,
      loadDataDir: new Blob([bytes], { type: gzipped ? 'application/x-gzip' : 'application/x-tar' }),
    });
    await client.close();
  } catch (error) {
    // Half-written files would pass for a database next time.
    await rm(dataDir, { recursive: true, force: true });
    throw new Error(`${file} is not a backup this server can restore: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return `Restored ${file} into ${dataDir}: start the server.`;
}

const hasDatabase = (dataDir: string) => existsSync(path.join(dataDir, 'PG_VERSION'));
