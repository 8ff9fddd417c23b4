import type { ErrorBody } from '@stagedoor/shared/errors';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CROWD_ENV } from '../../bench/seed';
import { startPostgresServer } from '../../test/postgres-server';
import { startServerProcess } from '../../test/server-process';
import { purchase, readStore, seedDrop, startDrop, summarize, waitUntil } from '../../test/ticket-drop';
import { DATABASE_UNAVAILABLE_MESSAGE } from './database';

/** "Within a few seconds": the pool's connection wait (5 s) with room for a busy machine. */
const ANSWER_WITHIN_MS = 10_000;
/** Long enough that a request the server never answers shows as one, not as a slow answer. */
const GIVE_UP_AFTER_MS = 30_000;
const SOLD_BEFORE_STOP = 50;
const ANSWERS_WHILE_DOWN = 150;

const UNAVAILABLE: ErrorBody = {
  statusCode: 503,
  code: 'SERVICE_UNAVAILABLE',
  message: DATABASE_UNAVAILABLE_MESSAGE,
};

// About PostgreSQL alone: PGlite runs inside the server's process, so it cannot stop under it.
describe('PostgreSQL stopped mid-drop', () => {
  it(
    'the server stays up, answers 503 within seconds while the database is down, and sells again once it is back',
    { timeout: 180_000 },
    async () => {
      const postgres = await startPostgresServer({ crashSafe: true });
      onTestFinished(() => postgres.stop());
      const database = { driver: 'postgres', url: postgres.url } as const;
      const { jwtSecret, eventId, tokens } = await seedDrop(database);
      const server = await startServerProcess({
        DATABASE_URL: postgres.url,
        JWT_SECRET: jwtSecret,
        ...CROWD_ENV,
      });
      onTestFinished(() => server.stop());
      const alive = () => expect(server.isRunning(), `the server exited:\n${server.output()}`).toBe(true);

      let stopped = 0;
      const drop = startDrop({ origin: server.origin, eventId, tokens, answerTimeoutMs: GIVE_UP_AFTER_MS });
      try {
        await drop.waitFor(
          `${SOLD_BEFORE_STOP} sales`,
          (answers) => answers.filter((answer) => answer.status === 201).length >= SOLD_BEFORE_STOP,
          60_000,
        );
        await postgres.stopImmediately();
        stopped = drop.sent.length;
        const answeredBefore = drop.answers.length;
        await drop.waitFor(
          `${ANSWERS_WHILE_DOWN} answers once the database is down`,
          (answers) => answers.length - answeredBefore >= ANSWERS_WHILE_DOWN,
          60_000,
        );
      } finally {
        await drop.stop();
      }
      const slowest = Math.max(...drop.answers.map((answer) => answer.ms));
      console.info(
        `[postgres stopped mid-drop] answers ${summarize(drop.answers)}, ` +
          `${drop.sent.length - stopped} sent while down, slowest ${Math.round(slowest)} ms`,
      );
      alive();

      expect(drop.answers.filter((answer) => answer.status === null)).toEqual([]);
      expect(drop.answers.filter((answer) => answer.ms > ANSWER_WITHIN_MS)).toEqual([]);
      // Sent once the database was down: refused. Sent before: sold, or (caught by the stop) refused
      // the same way. Never a 500.
      const sentWhileDown = new Set(drop.sent.slice(stopped).map((sent) => sent.idempotencyKey));
      for (const answer of drop.answers) {
        if (sentWhileDown.has(answer.idempotencyKey) || answer.status !== 201) {
          expect(answer).toMatchObject({ status: 503, body: UNAVAILABLE });
        }
      }

      await postgres.restart();
      const health = async () => {
        const response = await fetch(`${server.origin}/api/health`);
        return response.status === 200 && ((await response.json()) as { status: string }).status === 'ok';
      };
      await waitUntil('the health check to answer ok', health, 30_000);
      const [token] = tokens;
      const after = await purchase(
        server.origin,
        token ?? '',
        eventId,
        { buyer: 0, idempotencyKey: 'after-restart', quantity: 1 },
        GIVE_UP_AFTER_MS,
      );
      expect(after.status, JSON.stringify(after.body)).toBe(201);
      alive();

      // PostgreSQL came back from its crash with every order the server confirmed, counted in its stock.
      const stored = await readStore(database);
      expect(stored.eventsMiscounted).toEqual([]);
      const storedIds = new Set(stored.orders.map((order) => order.id));
      const confirmedIds = drop.answers
        .filter((answer) => answer.status === 201)
        .map((answer) => (answer.body as { id: number }).id);
      expect(confirmedIds.filter((id) => !storedIds.has(id))).toEqual([]);
    },
  );
});
