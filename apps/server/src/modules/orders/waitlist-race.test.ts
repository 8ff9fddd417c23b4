import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createCreator, createEvent } from '../../../test/factories';
import { createTestApp, sameDeploymentAs } from '../../../test/test-app';
import type { App } from '../../app';
import { accounts, events, orders, outbox, ticketTypes, waitlistEntries } from '../../db/schema';
import { giveBackTickets } from '../events/stock';
import { clockAt, expireOrder, placeOrder } from './order-lifecycle';

/** Holds that end at once, each seen by every instance, and a longer line than tickets coming back. */
const TICKETS = 20;
const LINE = 40;

const first = await createTestApp();
// On PostgreSQL a second instance shares the database, as behind a load balancer.
const apps: App[] = [first];
if (inject('databaseDriver') === 'postgres') apps.push(await createTestApp(sameDeploymentAs(first)));
afterAll(() => Promise.all(apps.map((app) => app.close())));

type Expire = (app: App, orderId: number) => Promise<unknown>;

/**
 * The control: a hold's expiry, then its tickets offered to the line in a step of its own, as a job
 * reading the line and the stock would: the first fan waiting and the tickets free are read, then the
 * fan's order written, their entry marked and the stock set, each a statement of its own. Expiries
 * running at once all read the same first fan and the same stock.
 */
const expireThenOfferWithoutGuard: Expire = async (app, orderId) => {
  const { db } = app.deps;
  const [expired] = await db
    .update(orders)
    .set({ status: 'expired' })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
    .returning();
  if (!expired) return;
  await giveBackTickets(db, expired);
  const [turn] = await db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, expired.eventId), isNull(waitlistEntries.orderId)))
    .orderBy(asc(waitlistEntries.joinedAt), asc(waitlistEntries.id))
    .limit(1);
  const [event] = await db.select().from(events).where(eq(events.id, expired.eventId));
  if (!turn || !event || event.sold >= event.maxTickets) return;
  // Widens the window between the read and the write, as a busy server would (holds-race.test.ts).
  await sleep(5);
  const [offer] = await db
    .insert(orders)
    .values({
      accountId: turn.accountId,
      eventId: event.id,
      ticketTypeId: expired.ticketTypeId,
      quantity: turn.quantity,
      unitPriceCents: expired.unitPriceCents,
      totalCents: expired.unitPriceCents * turn.quantity,
      status: 'pending',
      expiresAt: new Date(Date.now() + 60 * 60_000),
    })
    .returning();
  if (!offer) throw new Error('the control wrote no order');
  await db.update(waitlistEntries).set({ orderId: offer.id }).where(eq(waitlistEntries.id, turn.id));
  await db
    .update(events)
    .set({ sold: event.sold + turn.quantity })
    .where(eq(events.id, event.id));
  await db
    .update(ticketTypes)
    .set({ sold: sql`${ticketTypes.sold} + ${turn.quantity}` })
    .where(eq(ticketTypes.id, expired.ticketTypeId));
};

/** Fans straight into the database: the race is about the line, not about hashing passwords. */
async function insertFans(count: number): Promise<number[]> {
  const rows = await first.deps.db
    .insert(accounts)
    .values(
      Array.from({ length: count }, (_, n) => ({
        email: `fan-${n}-${randomUUID()}@example.test`,
        passwordHash: 'not-a-hash',
        role: 'user' as const,
        firstName: 'Fan',
        lastName: String(n),
        nickname: `fan-${randomUUID()}`,
      })),
    )
    .returning({ id: accounts.id });
  return rows.map((row) => row.id);
}

interface Outcome {
  /** Fans whose turn came, by their place in line (0 first). */
  offeredPlaces: number[];
  /** The most orders one fan in line was given. */
  mostOrdersOfOneFan: number;
  pendingTickets: number;
  eventSold: number;
  offerMails: number;
}

/**
 * An event of TICKETS tickets, all held by fans' checkouts, and LINE other fans in line for one each;
 * then every hold ends at once, each expiry run on every instance.
 */
async function race(expire: Expire): Promise<Outcome> {
  const { db } = first.deps;
  const event = await createEvent(first, await createCreator(first), { price: 15, maxTickets: TICKETS });
  const holders = await insertFans(TICKETS);
  const now = new Date();
  const holds: number[] = [];
  for (const accountId of holders) {
    const placed = await placeOrder(
      db,
      {
        accountId,
        eventId: event.id,
        ticketTypeId: null,
        quantity: 1,
        unitPriceCents: null,
        amountCents: null,
        promoCode: null,
        idempotencyKey: null,
        requestHash: null,
      },
      { now, holdUntil: new Date(now.getTime() + 60_000) },
    );
    if (!placed) throw new Error('a hold was refused');
    holds.push(placed.order.id);
  }
  const line = await insertFans(LINE);
  await db.insert(waitlistEntries).values(
    line.map((accountId, place) => ({
      eventId: event.id,
      accountId,
      quantity: 1,
      joinedAt: new Date(now.getTime() + place),
    })),
  );

  await Promise.all(holds.flatMap((orderId) => apps.map((app) => expire(app, orderId))));

  const offered = await db
    .select({ accountId: orders.accountId, orders: count() })
    .from(orders)
    .where(and(eq(orders.eventId, event.id), eq(orders.status, 'pending'), inArray(orders.accountId, line)))
    .groupBy(orders.accountId);
  const [pending] = await db
    .select({ tickets: sql<number>`coalesce(sum(${orders.quantity}), 0)`.mapWith(Number) })
    .from(orders)
    .where(and(eq(orders.eventId, event.id), eq(orders.status, 'pending')));
  const [stored] = await db.select({ sold: events.sold }).from(events).where(eq(events.id, event.id));
  const [mails] = await db
    .select({ total: count() })
    .from(outbox)
    .where(and(eq(outbox.kind, 'waitlist-offer'), sql`(${outbox.data} ->> 'eventId')::int = ${event.id}`));
  return {
    offeredPlaces: offered.map((row) => line.indexOf(row.accountId)).sort((a, b) => a - b),
    mostOrdersOfOneFan: Math.max(0, ...offered.map((row) => row.orders)),
    pendingTickets: pending?.tickets ?? -1,
    eventSold: stored?.sold ?? -1,
    offerMails: mails?.total ?? -1,
  };
}

describe(
  `${TICKETS} holds ending at once on every instance, ${LINE} fans in line`,
  { timeout: 120_000 },
  () => {
    it('offer each ticket once, to the first fans in line, one turn each', async () => {
      const result = await race((app, orderId) =>
        expireOrder(app.deps.db, orderId, clockAt(app.deps.config, new Date())),
      );
      console.info(
        `[waitlist race, guarded] ${inject('databaseDriver')}, ${apps.length} instances: ${JSON.stringify(result)}`,
      );
      expect(result.offeredPlaces).toEqual(Array.from({ length: TICKETS }, (_, place) => place));
      expect(result.mostOrdersOfOneFan).toBe(1);
      expect(result.pendingTickets).toBe(TICKETS);
      expect(result.eventSold).toBe(TICKETS);
      expect(result.offerMails).toBe(TICKETS);
    });

    it('control: offering in a step of its own, reading then writing, gives one fan several turns', async () => {
      const result = await race(expireThenOfferWithoutGuard);
      console.info(
        `[waitlist race, control] ${inject('databaseDriver')}, ${apps.length} instances: ${JSON.stringify(result)}`,
      );
      expect(result.mostOrdersOfOneFan).toBeGreaterThan(1);
      expect(result.offeredPlaces.length).toBeLessThan(TICKETS);
      // And the stock no longer counts what the orders hold.
      expect(result.eventSold).not.toBe(result.pendingTickets);
    });
  },
);
