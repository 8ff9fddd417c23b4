import { setTimeout as sleep } from 'node:timers/promises';
import type { ErrorBody } from '@stagedoor/shared/errors';
import { eq, sum } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { createCreator, createEvent, createUser } from '../../../test/factories';
import { startInstances } from '../../../test/test-app';
import type { App, TestSeams } from '../../app';
import type { Database } from '../../db/database';
import { events, orders, ticketTypes } from '../../db/schema';
import type { PlaceOrder } from './order-lifecycle';

const MAX_TICKETS = 50;
// 20 buyers making 10 purchases each: 200 requests in flight at once, one ticket each.
const BUYERS = 20;
const PURCHASES_PER_BUYER = 10;

/**
 * The purchase the conditional UPDATE replaces, for the control: read the stock, check it, then write
 * it back and record the order, each a statement of its own, with no transaction holding a lock.
 * Between the read and the write, other purchases read the same stock, and each writes back "sold
 * + 1" over the others.
 */
const readThenWritePlaceOrder: PlaceOrder = async (db, purchase) => {
  const [event] = await db.select().from(events).where(eq(events.id, purchase.eventId));
  if (!event?.isActive || event.date <= new Date()) return null;
  if (event.sold + purchase.quantity > event.maxTickets) return null;
  // Widens the window between the read and the write by 5 ms, the time a slower query or a busy server
  // would take. PostgreSQL oversells without it; PGlite runs one query at a time and serves the
  // purchases nearly one after the other, so without it its oversell is a handful of tickets, not a
  // dependable one (measured: 50-54 without, 76-108 with).
  await sleep(5);
  await db
    .update(events)
    .set({ sold: event.sold + purchase.quantity })
    .where(eq(events.id, event.id));
  const [order] = await db
    .insert(orders)
    .values({
      ...purchase,
      ticketTypeId: purchase.ticketTypeId ?? (await firstTypeOf(db, event.id)),
      unitPriceCents: event.priceCents,
      totalCents: event.priceCents * purchase.quantity,
      status: 'completed',
    })
    .returning();
  if (!order) throw new Error('insert into orders returned no row');
  return { order, event, ticket: { type: 'General admission', promoCode: null } };
};

async function firstTypeOf(db: Database, eventId: number): Promise<number> {
  const [type] = await db
    .select({ id: ticketTypes.id })
    .from(ticketTypes)
    .where(eq(ticketTypes.eventId, eventId));
  if (!type) throw new Error(`event ${eventId} has no ticket type`);
  return type.id;
}

interface RaceResult {
  instances: number;
  answers: { status: number; body: unknown }[];
  ticketsInOrders: number;
  eventSold: number;
}

/** 200 concurrent one-ticket purchases over HTTP, alternating between the servers. */
async function race(seams?: TestSeams): Promise<RaceResult> {
  const { apps, origins } = await startInstances(seams);
  const urls = origins.map((origin) => `${origin}/api/orders`);
  try {
    const [first] = apps as [App];
    const event = await createEvent(first, await createCreator(first), { maxTickets: MAX_TICKETS });
    // Registered up front, through inject, so registration limits and hashing stay out of the race.
    // Distinct names, as real buyers have: the same name 20 times at once would race for one nickname.
    const buyers = await Promise.all(
      Array.from({ length: BUYERS }, (_, n) => createUser(first, { firstName: `Buyer ${n}` })),
    );

    const purchases = buyers.flatMap((buyer) => Array<typeof buyer>(PURCHASES_PER_BUYER).fill(buyer));
    const answers = await Promise.all(
      purchases.map(async (buyer, n) => {
        const response = await fetch(urls[n % urls.length] ?? '', {
          method: 'POST',
          headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ eventId: event.id, quantity: 1 }),
        });
        return { status: response.status, body: (await response.json()) as unknown };
      }),
    );

    const [stored] = await first.deps.db
      .select({ tickets: sum(orders.quantity) })
      .from(orders)
      .where(eq(orders.eventId, event.id));
    const [after] = await first.deps.db.select().from(events).where(eq(events.id, event.id));
    return {
      instances: apps.length,
      answers,
      ticketsInOrders: Number(stored?.tickets ?? 0),
      eventSold: after?.sold ?? -1,
    };
  } finally {
    await Promise.all(apps.map((app) => app.close()));
  }
}

const SOLD_OUT: ErrorBody = {
  statusCode: 409,
  code: 'CONFLICT',
  message: 'No tickets left',
  fields: { quantity: 'No tickets left' },
};

// 200 requests at once take a few seconds alone, many more on a busy machine.

describe(
  `${BUYERS * PURCHASES_PER_BUYER} concurrent purchases of an event with ${MAX_TICKETS} tickets`,
  { timeout: 90_000 },
  () => {
    it(`sell exactly ${MAX_TICKETS} tickets and refuse the rest`, async () => {
      const result = await race();
      expect(result.instances).toBe(inject('databaseDriver') === 'postgres' ? 2 : 1);
      const sold = result.answers.filter((answer) => answer.status === 201);
      const refused = result.answers.filter((answer) => answer.status !== 201);
      expect(sold).toHaveLength(MAX_TICKETS);
      expect(result.ticketsInOrders).toBe(MAX_TICKETS);
      expect(result.eventSold).toBe(MAX_TICKETS);
      expect(refused).toHaveLength(BUYERS * PURCHASES_PER_BUYER - MAX_TICKETS);
      for (const answer of refused) expect(answer).toEqual({ status: 409, body: SOLD_OUT });
      console.info(`[race, guarded] ${inject('databaseDriver')}: ${result.ticketsInOrders} tickets sold`);
    });

    it('control: the same race against a read-then-write purchase oversells', async () => {
      const result = await race({ placeOrder: readThenWritePlaceOrder });
      const sold = result.answers.filter((answer) => answer.status === 201);
      expect(sold.length).toBeGreaterThan(MAX_TICKETS);
      expect(result.ticketsInOrders).toBe(sold.length);
      // Each lost update wrote back a count that fitted, so the event's own counter looks innocent.
      expect(result.eventSold).toBeLessThanOrEqual(MAX_TICKETS);
      console.info(`[race, control] ${inject('databaseDriver')}: ${result.ticketsInOrders} tickets sold`);
    });
  },
);
