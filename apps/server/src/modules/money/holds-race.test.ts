import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, inArray, sum } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createCreator, createEvent } from '../../../test/factories';
import { createTestApp, sameDeploymentAs } from '../../../test/test-app';
import type { App } from '../../app';
import { accounts, events, orders } from '../../db/schema';
import { giveBackTickets } from '../events/stock';
import { clockAt, expireOrder, payOrder } from '../orders/order-lifecycle';

const MAX_TICKETS = 50;
const BUYERS = 200;
const HOLD_MS = 30 * 60_000;
const RETRIES = 10;
/**
 * Buyers racing at once. On PostgreSQL, four times the connections the instances' pools hold (10
 * each), so every connection is always contended: more would only queue for a connection, a wait that
 * counts towards the pool's 5 s connect timeout (200 at once beside another copy of the suite failed
 * on it). The embedded database has no pool, and its race needs them all at once.
 */
const IN_FLIGHT = inject('databaseDriver') === 'postgres' ? 40 : BUYERS;

const first = await createTestApp();
// On PostgreSQL a second instance shares the database, as behind a load balancer.
const apps: App[] = [first];
if (inject('databaseDriver') === 'postgres') apps.push(await createTestApp(sameDeploymentAs(first)));
afterAll(() => Promise.all(apps.map((app) => app.close())));

type Expire = (app: App, orderId: number) => Promise<unknown>;

/**
 * What expireOrder replaces, for the control: read the order, and if it is pending, mark it expired and
 * give its tickets back, each a statement of its own. When the job and the provider's notice expire the
 * same hold at once, both read `pending` and both give the tickets back.
 */
const expireWithoutGuard: Expire = async (app, orderId) => {
  const [order] = await app.deps.db.select().from(orders).where(eq(orders.id, orderId));
  if (order?.status !== 'pending') return;
  await sleep(5);
  await app.deps.db.update(orders).set({ status: 'expired' }).where(eq(orders.id, orderId));
  await giveBackTickets(app.deps.db, order);
};

/** Buyers straight into the database: the race is about tickets, not about hashing passwords. */
async function insertBuyers(count: number): Promise<number[]> {
  const rows = await first.deps.db
    .insert(accounts)
    .values(
      Array.from({ length: count }, (_, n) => ({
        email: `buyer-${n}-${randomUUID()}@example.test`,
        passwordHash: 'not-a-hash',
        role: 'user' as const,
        firstName: 'Buyer',
        lastName: String(n),
        nickname: `buyer-${randomUUID()}`,
      })),
    )
    .returning({ id: accounts.id });
  return rows.map((row) => row.id);
}

/**
 * 200 buyers each hold 1 ticket of a 50-ticket event, IN_FLIGHT at once, across the instances. Every hold that got
 * tickets is then, still concurrently, settled twice, as the provider's notice and the settlement job
 * would: even buyers pay (payOrder twice), odd buyers give up (expire twice), and a buyer turned
 * away tries again every 10 ms, up to RETRIES times, for the tickets the expiries give back.
 */
async function race(expire: Expire) {
  const event = await createEvent(first, await createCreator(first), { maxTickets: MAX_TICKETS });
  const buyers = await insertBuyers(BUYERS);
  const now = new Date();
  const hold = (accountId: number, n: number) =>
    (apps[n % apps.length] as App).deps.placeOrder(
      first.deps.db,
      {
        accountId,
        eventId: event.id,
        quantity: 1,
        ticketTypeId: null,
        unitPriceCents: null,
        amountCents: null,
        promoCode: null,
        idempotencyKey: null,
        requestHash: null,
      },
      { now, holdUntil: new Date(now.getTime() + HOLD_MS) },
    );
  const buyer = async (accountId: number, n: number) => {
    const app = apps[n % apps.length] as App;
    let placed = await hold(accountId, n);
    for (let retry = 0; !placed && retry < RETRIES; retry += 1) {
      await sleep(10);
      placed = await hold(accountId, n);
    }
    if (!placed) return;
    const settle =
      n % 2 === 0
        ? () =>
            payOrder(
              app.deps.db,
              placed.order.id,
              {
                paymentId: `pi_${event.id}_${n}`,
                chargeId: `ch_${event.id}_${n}`,
                amountCents: 1000,
                processorFeeCents: 0,
              },
              now,
            )
        : () => expire(app, placed.order.id);
    await Promise.all([settle(), settle()]);
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < buyers.length) {
        const n = next++;
        await buyer(buyers[n] as number, n);
      }
    }),
  );
  const [held] = await first.deps.db
    .select({ tickets: sum(orders.quantity).mapWith(Number) })
    .from(orders)
    .where(and(eq(orders.eventId, event.id), inArray(orders.status, ['pending', 'completed'])));
  const [paid] = await first.deps.db
    .select({ tickets: sum(orders.quantity).mapWith(Number) })
    .from(orders)
    .where(and(eq(orders.eventId, event.id), eq(orders.status, 'completed')));
  const [after] = await first.deps.db.select().from(events).where(eq(events.id, event.id));
  return { held: held?.tickets ?? 0, paid: paid?.tickets ?? 0, sold: after?.sold ?? -1 };
}

// 200 requests at once take a few seconds alone, many more on a busy machine.

describe(
  `${BUYERS} buyers through holds, payments and expiries of ${MAX_TICKETS} tickets`,
  { timeout: 90_000 },
  () => {
    it('never sell more than the stock, and the stock counts exactly the held and paid tickets', async () => {
      const result = await race((app, orderId) =>
        expireOrder(app.deps.db, orderId, clockAt(app.deps.config, new Date())),
      );
      expect(result.paid).toBeGreaterThan(0);
      expect(result.paid).toBeLessThanOrEqual(MAX_TICKETS);
      expect(result.sold).toBe(result.held);
      console.info(
        `[holds race, guarded] ${inject('databaseDriver')}: ${result.paid} paid, sold ${result.sold}`,
      );
    });

    it('control: the same race expiring holds without the status guard oversells', async () => {
      const result = await race(expireWithoutGuard);
      // Tickets given back twice: the counter says fewer are taken than buyers hold, and it sold them again.
      expect(result.sold).toBeLessThan(result.held);
      expect(result.held).toBeGreaterThan(MAX_TICKETS);
      console.info(
        `[holds race, control] ${inject('databaseDriver')}: ${result.held} held for ${MAX_TICKETS}`,
      );
    });
  },
);
