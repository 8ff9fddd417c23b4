import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import { createUser } from '../../test/factories';
import { createTestApp } from '../../test/test-app';
import { EMBEDDED_CHECKPOINT_MS } from './database';

/** The one row a query answers. */
async function rowOf<T>(query: ReturnType<typeof sql>): Promise<T | undefined> {
  const { rows } = (await app.deps.db.execute(query)) as { rows: T[] };
  return rows[0];
}

// On disk, as `npm start` keeps it: an in-memory database has nothing to recover.
const app = await createTestApp({
  DATA_DIR: await mkdtemp(path.join(inject('tempRoot'), 'checkpoint-')),
  DATABASE_URL: '',
});
afterAll(() => app.close());

describe('the embedded database', () => {
  it(
    'is checkpointed every EMBEDDED_CHECKPOINT_MS, so a restart after a kill replays at most that much log',
    { timeout: EMBEDDED_CHECKPOINT_MS * 3 },
    async () => {
      await createUser(app);
      const written = await rowOf<{ lsn: string }>(sql`select pg_current_wal_lsn()::text as lsn`);
      // PGlite has no checkpointer of its own: without the server's, the redo point never moves on.
      await vi.waitFor(
        async () => {
          const checkpoint = await rowOf<{ done: boolean }>(
            sql`select (select redo_lsn from pg_control_checkpoint()) >= ${written?.lsn}::pg_lsn as done`,
          );
          expect(checkpoint?.done).toBe(true);
        },
        { timeout: EMBEDDED_CHECKPOINT_MS * 2, interval: 1000 },
      );
    },
  );
});
