import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
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

export interface DatabaseHandle {
  db: Database;
  close: () => Promise<void>;
}

// Any constant works; it only has to be the same for every instance of this server.
const MIGRATION_LOCK_ID = 727_001;

/** Opens the configured database and brings its schema up to date. */
export async function createDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  return config.driver === 'pglite' ? openPglite(config.dataDir) : openPostgres(config.url);
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create(dataDir);
  try {
    const db = drizzlePglite({ client, schema });
    await migratePglite(db, { migrationsFolder: MIGRATIONS_DIR });
    return { db, close: () => client.close() };
  } catch (error) {
    await client.close();
    throw error;
  }
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url });
  try {
    // Several instances may start at once: one migrates while the others wait on the lock.
    const connection = await pool.connect();
    try {
      await connection.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
      await migrateNodePg(drizzleNodePg({ client: connection }), { migrationsFolder: MIGRATIONS_DIR });
      await connection.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
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

/** The name of the unique index a query violated, or null for any other error. */
export function violatedUniqueIndex(error: unknown): string | null {
  // Drizzle wraps the driver's error; both drivers report PostgreSQL's SQLSTATE and constraint name.
  const cause = error instanceof Error && error.cause ? error.cause : error;
  if (typeof cause !== 'object' || cause === null) return null;
  const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
  return code === '23505' && typeof constraint === 'string' ? constraint : null;
}
