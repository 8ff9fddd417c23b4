import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { IDEMPOTENCY_KEY_HEADER } from '@stagedoor/shared/orders';
import { inArray, sql, sum } from 'drizzle-orm';
import { seed } from '../bench/seed';
import type { DatabaseConfig } from '../src/config';
import { createDatabase } from '../src/db/database';
import { events, orders } from '../src/db/schema';
import { signAccessToken } from '../src/modules/accounts/tokens';

/** A seeded drop: the server's token secret, the event on sale, and a token per buyer. */
interface SeededDrop {
  jwtSecret: string;
  eventId: number;
  tokens: string[];
}

/** The bench's drop (bench/seed.ts: 50 buyers, 4000 tickets), written before a server opens it. */
export async function seedDrop(database: DatabaseConfig): Promise<SeededDrop> {
  const { dropEventId, buyerIds } = await seed(database);
  const jwtSecret = randomBytes(32).toString('base64url');
  const secret = new TextEncoder().encode(jwtSecret);
  const tokens = await Promise.all(
    buyerIds.map((id) => signAccessToken(secret, { id, role: 'user', tokenVersion: 0 })),
  );
  return { jwtSecret, eventId: dropEventId, tokens };
}

interface Purchase {
  buyer: number;
  idempotencyKey: string;
  quantity: number;
}

export interface Answer extends Purchase {
  /** null: no answer came (the connection failed, or the wait ran out). */
  status: number | null;
  body: unknown;
  /** From sending to the answer, or to giving up. */
  ms: number;
  /** Why no answer came. */
  error?: string;
}

/** One keyed POST /api/orders, waiting at most `timeoutMs` for its answer. */
export async function purchase(
  origin: string,
  token: string,
  eventId: number,
  { buyer, idempotencyKey, quantity }: Purchase,
  timeoutMs: number,
): Promise<Answer> {
  const sent = { buyer, idempotencyKey, quantity };
  const started = performance.now();
  try {
    const response = await fetch(`${origin}/api/orders`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        [IDEMPOTENCY_KEY_HEADER]: idempotencyKey,
      },
      body: JSON.stringify({ eventId, quantity }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON: kept as text, for the assertion that shows it.
    }
    return { ...sent, status: response.status, body, ms: performance.now() - started };
  } catch (error) {
    const { name, message, cause } = error as Error & { cause?: Error };
    const reason = `${name}: ${message}${cause ? ` (${cause.message})` : ''}`;
    return { ...sent, status: null, body: null, ms: performance.now() - started, error: reason };
  }
}

interface Drop {
  /** Every purchase sent so far, answered or not, in the order sent. */
  sent: Purchase[];
  /** Every purchase that has come back (with an answer or without), in the order they came back. */
  answers: Answer[];
  /** Resolves once `condition` holds for the answers so far; throws after `timeoutMs`. */
  waitFor(what: string, condition: (answers: Answer[]) => boolean, timeoutMs: number): Promise<void>;
  /** Sends no more purchases; resolves once every buyer's last one has come back. */
  stop(): Promise<void>;
}

const POLL_MS = 20;

/**
 * A ticket drop: every buyer sends keyed purchases of one or two tickets, one after the other, as fast
 * as the answers come, until stopped. A buyer who gets no success waits `pauseAfterFailureMs` before the
 * next purchase, as a client backing off would, so a server that fails fast is not flooded.
 */
export function startDrop({
  origin,
  eventId,
  tokens,
  answerTimeoutMs,
  pauseAfterFailureMs = 50,
}: {
  origin: string;
  eventId: number;
  tokens: string[];
  answerTimeoutMs: number;
  pauseAfterFailureMs?: number;
}): Drop {
  const sent: Purchase[] = [];
  const answers: Answer[] = [];
  let stopped = false;
  const buyers = tokens.map(async (token, buyer) => {
    for (let n = 0; !stopped; n += 1) {
      const next = { buyer, idempotencyKey: `drop-${buyer}-${n}`, quantity: 1 + (n % 2) };
      sent.push(next);
      const answer = await purchase(origin, token, eventId, next, answerTimeoutMs);
      answers.push(answer);
      if (answer.status === null || answer.status >= 300) await sleep(pauseAfterFailureMs);
    }
  });
  return {
    sent,
    answers,
    waitFor: async (what, condition, timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (!condition(answers)) {
        if (Date.now() > deadline) {
          throw new Error(`timed out waiting for ${what}; answers so far: ${summarize(answers)}`);
        }
        await sleep(POLL_MS);
      }
    },
    stop: async () => {
      stopped = true;
      await Promise.all(buyers);
    },
  };
}

/** How many answers came back with each status ("none": no answer), e.g. `{"201":120,"503":48}`. */
export function summarize(answers: Answer[]): string {
  const counts: Record<string, number> = {};
  for (const answer of answers) {
    const key = String(answer.status ?? 'none');
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return JSON.stringify(counts);
}

/** Polls `check` until it is true; throws after `timeoutMs`. */
export async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(POLL_MS * 5);
  }
}

interface StoredDrop {
  /** Every event whose `sold` differs from the tickets its orders hold (should be none). */
  eventsMiscounted: { id: number; sold: number; inOrders: number }[];
  /** Every stored order: id, key and quantity. */
  orders: { id: number; idempotencyKey: string | null; quantity: number }[];
}

/** What the database holds, opened as the server opens it: on PGlite, only while no server runs. */
export async function readStore(database: DatabaseConfig): Promise<StoredDrop> {
  const handle = await createDatabase(database);
  try {
    const { db } = handle;
    const held = db
      .select({ eventId: orders.eventId, tickets: sum(orders.quantity).as('tickets') })
      .from(orders)
      .where(inArray(orders.status, ['pending', 'completed']))
      .groupBy(orders.eventId)
      .as('held');
    const counted = await db
      .select({ id: events.id, sold: events.sold, inOrders: sql<string>`coalesce(${held.tickets}, 0)` })
      .from(events)
      .leftJoin(held, sql`${held.eventId} = ${events.id}`);
    const stored = await db
      .select({ id: orders.id, idempotencyKey: orders.idempotencyKey, quantity: orders.quantity })
      .from(orders);
    return {
      eventsMiscounted: counted
        .map((row) => ({ id: row.id, sold: row.sold, inOrders: Number(row.inOrders) }))
        .filter((row) => row.sold !== row.inOrders),
      orders: stored,
    };
  } finally {
    await handle.close();
  }
}
