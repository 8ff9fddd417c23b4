import { createServer, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { startPostgresServer } from '../../test/postgres-server';
import { waitUntil } from '../../test/ticket-drop';
import { createDatabase, isDatabaseUnavailable, type Database } from './database';

const quiet = { error: () => undefined };

/** drizzle's handle on the pool it queries through. */
const poolOf = (db: Database) => (db as unknown as { $client: pg.Pool }).$client;

// About the PostgreSQL driver alone: PGlite has no connection to lose.
describe('PostgreSQL connections', () => {
  it('a server that accepts connections but never answers fails the open within seconds', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => silent.close(() => resolve()));
    });
    const { port } = silent.address() as { port: number };

    const started = Date.now();
    const error: unknown = await createDatabase(
      { driver: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/postgres` },
      quiet,
    ).then(
      () => new Error('opened a database that never answered'),
      (failure: unknown) => failure,
    );
    expect(isDatabaseUnavailable(error), String(error)).toBe(true);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it(
    'connections lost mid-transaction fail as "unavailable", none stays held, and the pool works again once the server is back',
    { timeout: 120_000 },
    async () => {
      const postgres = await startPostgresServer();
      onTestFinished(() => postgres.stop());
      const handle = await createDatabase({ driver: 'postgres', url: postgres.url }, quiet);
      onTestFinished(() => handle.close());

      // Five times the pool's connections, each running short transactions back to back: when the
      // server goes, some are mid-query, some are sending their `begin`, some are waiting for a connection.
      let running = true;
      let committed = 0;
      const failures: unknown[] = [];
      const loops = Array.from({ length: 50 }, async () => {
        while (running) {
          try {
            await handle.db.transaction(async (tx) => {
              await tx.execute(sql`select 1`);
            });
            committed += 1;
          } catch (error) {
            failures.push(error);
            await new Promise((resolve) => setTimeout(resolve, 10));
          }
        }
      });
      try {
        await waitUntil('transactions to commit', async () => committed >= 500, 60_000);
        await postgres.stopImmediately();
        await waitUntil('every transaction to fail', async () => failures.length >= 200, 30_000);
      } finally {
        running = false;
        await Promise.all(loops);
      }

      expect(failures.filter((error) => !isDatabaseUnavailable(error))).toEqual([]);
      // A connection still held now belongs to no one: each outage would take a few, until none were left.
      expect(poolOf(handle.db).totalCount).toBe(0);

      await postgres.restart();
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          handle.db.transaction(async (tx) => {
            const { rows } = (await tx.execute(sql`select 1 as one`)) as { rows: unknown[] };
            return rows[0];
          }),
        ),
      );
      expect(answers).toEqual(Array.from({ length: 20 }, () => ({ one: 1 })));
    },
  );
});
