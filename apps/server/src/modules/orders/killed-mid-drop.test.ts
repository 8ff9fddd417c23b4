import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { CROWD_ENV } from '../../../bench/seed';
import { startServerProcess } from '../../../test/server-process';
import { freshDatabaseUrl } from '../../../test/test-app';
import { purchase, readStore, seedDrop, startDrop, summarize, type Answer } from '../../../test/ticket-drop';
import { loadConfig } from '../../config';

const SOLD_BEFORE_KILL = 100;
const GIVE_UP_AFTER_MS = 30_000;

/**
 * A deployment's environment on the project's driver (PGlite in its own DATA_DIR, or a fresh database
 * on the test PostgreSQL), and its database as the server opens it.
 */
async function freshDeployment() {
  const env: Record<string, string> = { DATA_DIR: await mkdtemp(path.join(inject('tempRoot'), 'killed-')) };
  if (inject('databaseDriver') === 'postgres') env.DATABASE_URL = await freshDatabaseUrl();
  const { database } = loadConfig({ ...env, JWT_SECRET: 'only-to-read-the-database-config-!' });
  return { env, database };
}

const orderIdOf = (answer: Answer) => (answer.body as { id: number }).id;

describe('SIGKILL mid drop', () => {
  it(
    'the server restarts on its data: every confirmed order stored once, the stock counting each, and retries answered with the first order',
    { timeout: 180_000 },
    async () => {
      const { env, database } = await freshDeployment();
      const { jwtSecret, eventId, tokens } = await seedDrop(database);
      const serverEnv = { ...env, JWT_SECRET: jwtSecret, ...CROWD_ENV };

      const first = await startServerProcess(serverEnv);
      onTestFinished(() => first.kill());
      const drop = startDrop({ origin: first.origin, eventId, tokens, answerTimeoutMs: GIVE_UP_AFTER_MS });
      try {
        await drop.waitFor(
          `${SOLD_BEFORE_KILL} sales`,
          (answers) => answers.filter((answer) => answer.status === 201).length >= SOLD_BEFORE_KILL,
          60_000,
        );
        await first.kill();
      } finally {
        await drop.stop();
      }
      // Sales, and the purchases the kill cut off (no answer): nothing else.
      expect(drop.answers.filter((answer) => answer.status !== 201 && answer.status !== null)).toEqual([]);
      const confirmed = new Map(
        drop.answers
          .filter((answer) => answer.status === 201)
          .map((answer) => [answer.idempotencyKey, orderIdOf(answer)]),
      );

      // The database opens on what the killed server left (on PGlite: its own files, cut mid-write).
      const afterKill = await readStore(database);
      expect(afterKill.eventsMiscounted).toEqual([]);
      const storedBeforeRetry = new Map(afterKill.orders.map((order) => [order.idempotencyKey, order.id]));
      const lost = [...confirmed].filter(([key, id]) => storedBeforeRetry.get(key) !== id);
      expect(lost, 'confirmed orders missing after the kill').toEqual([]);

      // Each buyer retries every purchase it sent, with the same key, on the restarted server.
      const second = await startServerProcess(serverEnv);
      onTestFinished(() => second.stop());
      const retries = (
        await Promise.all(
          tokens.map(async (token, buyer) => {
            const answers: Answer[] = [];
            for (const sent of drop.sent.filter((purchased) => purchased.buyer === buyer)) {
              answers.push(await purchase(second.origin, token, eventId, sent, GIVE_UP_AFTER_MS));
            }
            return answers;
          }),
        )
      ).flat();
      await second.stop();

      for (const retry of retries) {
        const firstOrder = storedBeforeRetry.get(retry.idempotencyKey);
        // Stored before the kill (confirmed or not): that order again. Cut off before its commit: sold now.
        expect(retry).toMatchObject(
          firstOrder === undefined ? { status: 201 } : { status: 200, body: { id: firstOrder } },
        );
      }

      const final = await readStore(database);
      expect(final.eventsMiscounted).toEqual([]);
      // One order per key sent, and it is the one the retry answered.
      const finalByKey = new Map(final.orders.map((order) => [order.idempotencyKey, order.id]));
      expect(final.orders).toHaveLength(drop.sent.length);
      for (const retry of retries) expect(finalByKey.get(retry.idempotencyKey)).toBe(orderIdOf(retry));
      console.info(
        `[killed mid-drop] ${inject('databaseDriver')}: answers ${summarize(drop.answers)} before the kill, ` +
          `${summarize(retries)} to the retries`,
      );
    },
  );
});
