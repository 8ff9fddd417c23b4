import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
import { MIGRATIONS_DIR } from '../paths';
import * as schema from './schema';

/** What repositories see: the same query API whichever driver runs underneath. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

interface DatabaseHandle {
  db: Database;
  close: () => Promise<void>;
  /**
   * Writes what the write-ahead log holds into the tables, when the engine does not do it by itself:
   * PGlite has no background checkpointer, so without it a process killed after hours of sales replays
   * all their log when it starts again (48 s after a kill under load, issue 21).
   */
  checkpoint?: () => Promise<void>;
}

/** How often the embedded database is checkpointed: a restart after a kill replays at most this much log. */
export const EMBEDDED_CHECKPOINT_MS = 30_000;

/** Where a lost connection is reported: the server's logger, or the console for scripts. */
interface DatabaseLog {
  error(details: object, message: string): void;
}

const consoleLog: DatabaseLog = { error: (details, message) => console.error(message, details) };

export const DATABASE_UNAVAILABLE_MESSAGE =
  'The service is temporarily unavailable. Please try again in a moment.';

// Any constant works; it only has to be the same for every instance of this server.
const MIGRATION_LOCK_ID = 727_001;

/**
 * How long a query waits for a connection, new or freed by another request: with PostgreSQL down or
 * unreachable the request fails (503) within seconds instead of hanging. A drop's waits take milliseconds.
 */
const CONNECT_TIMEOUT_MS = 5_000;
/** PostgreSQL cancels a statement (lock waits included) that runs longer: the query wait is bounded too. */
const STATEMENT_TIMEOUT_MS = 10_000;

/** The extensions the schema uses (pg_trgm: search's trigram index), loaded whenever PGlite opens. */
export const PGLITE_EXTENSIONS = { pg_trgm };

/** Opens the configured database and brings its schema up to date. */
export async function createDatabase(
  config: DatabaseConfig,
  log: DatabaseLog = consoleLog,
): Promise<DatabaseHandle> {
  return config.driver === 'pglite' ? openPglite(config.dataDir) : openPostgres(config.url, log);
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir, { extensions: PGLITE_EXTENSIONS });
  try {
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
    return {
      db,
      close: () => client.close(),
      checkpoint: async () => {
        // About 70 ms after 30 s of continuous writes on this 2-core machine; nothing in memory.
        if (!dataDir.startsWith('memory://')) await client.exec('CHECKPOINT');
      },
    };
  } catch (error) {
    await client.close();
    throw error;
  }
}

async function openPostgres(url: string, log: DatabaseLog): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    statement_timeout: STATEMENT_TIMEOUT_MS,
    // A peer that vanished without closing the connection is noticed by the OS's probes (within
    // minutes, not the default two hours), and the connection fails instead of waiting forever.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // A connection lost while idle: the pool drops it and reports it here.
  pool.on('error', (error) => log.error({ err: error }, 'database connection lost'));
  const inUse = new WeakSet<pg.PoolClient>();
  pool.on('acquire', (client) => inUse.add(client));
  pool.on('release', (_error, client) => inUse.delete(client));
  // One lost while a request holds it is reported on the connection itself (the request's query fails
  // with the error); Node would end the process for an 'error' event nobody listens to.
  pool.on('connect', (client) => {
    client.on('error', (error) => {
      if (!inUse.has(client)) return;
      log.error({ err: error }, 'database connection lost during a query');
      // Given back to the pool at once, which drops it: drizzle's transaction never releases its
      // connection when its `begin` fails, and each outage would leak some until none were left.
      // The holder's own release, later, does nothing.
      const release = client.release;
      client.release = () => undefined;
      release(error);
    });
  });
  try {
    // Several instances may start at once: one migrates while the others wait on the lock.
    const connection = await pool.connect();
    try {
      // Waiting for another instance's migration, and migrating, may take longer than a request may.
      await connection.query('set statement_timeout = 0');
      await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await migrateNodePg(drizzleNodePg({ client: connection }), { migrationsFolder: MIGRATIONS_DIR });
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
      await connection.query('reset statement_timeout');
      connection.release();
    } catch (error) {
      // Destroying the connection ends its session, which frees the lock whatever state it is in.
      connection.release(error instanceof Error ? error : true);
      throw error;
    }
    const db = drizzleNodePg({ client: pool, schema });
    return { db, close: () => pool.end() };
  } catch (error) {
    await pool.end();
    throw error;
  }
}

/** The name of the constraint a query violated with this SQLSTATE, or null for any other error. */
function violated(error: unknown, sqlState: string): string | null {
  // Drizzle wraps the driver's error; both drivers report PostgreSQL's SQLSTATE and constraint name.
  const cause = error instanceof Error && error.cause ? error.cause : error;
  if (typeof cause !== 'object' || cause === null) return null;
  const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
  return code === sqlState && typeof constraint === 'string' ? constraint : null;
}

/** The name of the unique index a query violated, or null for any other error. */
export const violatedUniqueIndex = (error: unknown): string | null => violated(error, '23505');

/** The name of the foreign key a query violated (a row still named by another), or null. */
export const violatedForeignKey = (error: unknown): string | null => violated(error, '23503');

/** SQLSTATEs of a server that is going away, or cannot take the query now. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown: the server is stopping (or an administrator ended the session)
  '57P02', // crash_shutdown: another server process crashed, every session is ended
  '57P03', // cannot_connect_now: the server is starting up or shutting down
  '53300', // too_many_connections
  '57014', // query_canceled: the statement ran past STATEMENT_TIMEOUT_MS
]);
/** Class 08, connection_exception: the connection failed or was lost. */
const CONNECTION_EXCEPTION_CLASS = '08';
/** The socket's errors on the way to the server. */
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What pg and pg-pool say, without a code, when a connection ends or none can be had in time. */
const UNAVAILABLE_MESSAGES = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
]);

/**
 * Whether `error` says the database cannot be reached, is going away, or could not answer in time: a
 * passing outage (answered 503), not a fault of the request or of the code. Drizzle wraps the driver's
 * error (`cause`), and a connection to a host with several addresses fails with all of them (`errors`).
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (/^[0-9A-Z]{5}$/.test(code) && code.startsWith(CONNECTION_EXCEPTION_CLASS)) return true;
  }
  if (typeof message === 'string' && UNAVAILABLE_MESSAGES.has(message)) return true;
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
