import { setTimeout as sleep } from 'node:timers/promises';
import type { Event } from '@stagedoor/shared/events';
import type { PromoCode } from '@stagedoor/shared/promo-codes';
import { and, count, eq, isNotNull, sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { api, authHeader, createCreator, createUser } from '../../../test/factories';
import { startInstances } from '../../../test/test-app';
import type { App, TestSeams } from '../../app';
import { events, orders, promoCodes, ticketTypes } from '../../db/schema';
import type { PlaceOrder } from './order-lifecycle';

/** Two kinds of ticket, a code for half off limited to CODE_USES orders, and BUYERS fans at once. */
const EARLY_BIRD = { name: 'Early bird', price: 10, maxTickets: 40 };
const FRONT_ROW = { name: 'Front row', price: 30, maxTickets: 25 };
const CODE_USES = 20;
const BUYERS = 300;

/**
 * The purchase without the stock step's guards on the type and the code, for the control: read the
 * type's stock and the code's uses, check them, then write both back and record the order, each a
 * statement of its own. Between the read and the write, other purchases read the same counts, and each
 * writes back "read + 1" over the others: more tickets of a type and more uses of the code than allowed.
 */
const readThenWritePlaceOrder: PlaceOrder = async (db, purchase, { now }) => {
  const [type] = await db
    .select()
    .from(ticketTypes)
    .where(eq(ticketTypes.id, purchase.ticketTypeId ?? -1));
  const [code] = purchase.promoCode
    ? await db
        .select()
        .from(promoCodes)
        .where(and(eq(promoCodes.eventId, purchase.eventId), eq(promoCodes.code, purchase.promoCode)))
    : [];
  if (!type || type.sold + purchase.quantity > type.maxTickets) return null;
  if (code && code.maxUses !== null && code.uses >= code.maxUses) return null;
  // Widens the window between the read and the write, as a busy server would (purchase-race.test.ts):
  // wide enough that purchases overlap even when a loaded machine spreads their arrival over seconds
  // (at 5 ms, one CI run on PGlite sold each type exactly: the control proved nothing).
  await sleep(50);
  await db
    .update(ticketTypes)
    .set({ sold: type.sold + purchase.quantity })
    .where(eq(ticketTypes.id, type.id));
  if (code)
    await db
      .update(promoCodes)
      .set({ uses: code.uses + 1 })
      .where(eq(promoCodes.id, code.id));
  const discountCents = code ? Math.round(type.priceCents / 2) * purchase.quantity : 0;
  const [order] = await db
    .insert(orders)
    .values({
      accountId: purchase.accountId,
      eventId: purchase.eventId,
      ticketTypeId: type.id,
      quantity: purchase.quantity,
      unitPriceCents: type.priceCents,
      promoCodeId: code?.id ?? null,
      discountCents,
      totalCents: type.priceCents * purchase.quantity - discountCents,
      status: 'completed',
      createdAt: now,
      completedAt: now,
    })
    .returning();
  const [event] = await db.select().from(events).where(eq(events.id, purchase.eventId));
  if (!order || !event) throw new Error('the control wrote no order');
  return { order, event, ticket: { type: type.name, promoCode: code?.code ?? null } };
};

interface Outcome {
  instances: number;
  statuses: number[];
  /** Completed orders of each type, by name. */
  ordersByType: Record<string, number>;
  discountedOrders: number;
  codeUses: number;
  typesSold: Record<string, number>;
  eventSold: number;
}

/**
 * A creator's event with the two types and the code, then BUYERS purchases of one ticket at once over
 * HTTP (alternating between the instances): every other fan wants each type, half of them bring the code.
 */
async function race(seams?: TestSeams): Promise<Outcome> {
  const { apps, origins } = await startInstances(seams);
  try {
    const [first] = apps as [App];
    const creator = await createCreator(first);
    const created = await api(first, {
      method: 'POST',
      url: '/api/events',
      headers: authHeader(creator.token),
      payload: {
        name: 'Two kinds of ticket',
        description: 'A drop with a promotion.',
        date: new Date(Date.now() + 7 * 24 * 3600_000).toISOString(),
        maxPerBuyer: 1,
        ticketTypes: [EARLY_BIRD, FRONT_ROW],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const event = created.json<Event>();
    const code = await api(first, {
      method: 'POST',
      url: `/api/events/${event.id}/promo-codes`,
      headers: authHeader(creator.token),
      payload: { code: 'halfoff', percentOff: 50, maxUses: CODE_USES },
    });
    expect(code.statusCode, code.body).toBe(201);
    expect(code.json<PromoCode>()).toMatchObject({ code: 'HALFOFF', uses: 0, maxUses: CODE_USES });

    // Registered up front, so registration limits and hashing stay out of the race.
    const buyers = await Promise.all(
      Array.from({ length: BUYERS }, (_, n) => createUser(first, { firstName: `Fan ${n}` })),
    );
    const statuses = await Promise.all(
      buyers.map(async (buyer, n) => {
        const type = event.ticketTypes[n % 2];
        const response = await fetch(`${origins[n % origins.length]}/api/orders`, {
          method: 'POST',
          headers: { authorization: `Bearer ${buyer.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            eventId: event.id,
            quantity: 1,
            ticketTypeId: type?.id,
            ...(n % 4 < 2 ? { promoCode: 'HalfOff' } : {}),
          }),
        });
        return response.status;
      }),
    );

    const { db } = first.deps;
    const perType = await db
      .select({ name: ticketTypes.name, orders: count(orders.id), sold: ticketTypes.sold })
      .from(ticketTypes)
      .leftJoin(orders, and(eq(orders.ticketTypeId, ticketTypes.id), eq(orders.status, 'completed')))
      .where(eq(ticketTypes.eventId, event.id))
      .groupBy(ticketTypes.id);
    const [discounted] = await db
      .select({ total: count() })
      .from(orders)
      .where(
        and(eq(orders.eventId, event.id), isNotNull(orders.promoCodeId), sql`${orders.discountCents} > 0`),
      );
    const [stored] = await db
      .select({ uses: promoCodes.uses })
      .from(promoCodes)
      .where(eq(promoCodes.eventId, event.id));
    const [after] = await db.select({ sold: events.sold }).from(events).where(eq(events.id, event.id));
    return {
      instances: apps.length,
      statuses,
      ordersByType: Object.fromEntries(perType.map((type) => [type.name, type.orders])),
      typesSold: Object.fromEntries(perType.map((type) => [type.name, type.sold])),
      discountedOrders: discounted?.total ?? -1,
      codeUses: stored?.uses ?? -1,
      eventSold: after?.sold ?? -1,
    };
  } finally {
    await Promise.all(apps.map((app) => app.close()));
  }
}

describe(
  `${BUYERS} fans at once over two ticket types and a code of ${CODE_USES} uses`,
  { timeout: 180_000 },
  () => {
    it("sell each type's exact stock and exactly the code's uses at its discount", async () => {
      const result = await race();
      expect(result.instances).toBe(inject('databaseDriver') === 'postgres' ? 2 : 1);
      expect(result.ordersByType).toEqual({
        [EARLY_BIRD.name]: EARLY_BIRD.maxTickets,
        [FRONT_ROW.name]: FRONT_ROW.maxTickets,
      });
      expect(result.typesSold).toEqual(result.ordersByType);
      expect(result.eventSold).toBe(EARLY_BIRD.maxTickets + FRONT_ROW.maxTickets);
      expect(result.discountedOrders).toBe(CODE_USES);
      expect(result.codeUses).toBe(CODE_USES);
      const sold = result.statuses.filter((status) => status === 201).length;
      expect(sold).toBe(EARLY_BIRD.maxTickets + FRONT_ROW.maxTickets);
      // Everyone else was refused as a conflict (sold out, or the code used up), none failed.
      expect(result.statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(true);
      console.info(
        `[ticket options race, guarded] ${inject('databaseDriver')}: ${JSON.stringify(result.ordersByType)}, ${result.discountedOrders} discounted`,
      );
    });

    it('control: the same race without the guards on the type and the code oversells both', async () => {
      const result = await race({ placeOrder: readThenWritePlaceOrder });
      const early = result.ordersByType[EARLY_BIRD.name] ?? 0;
      const front = result.ordersByType[FRONT_ROW.name] ?? 0;
      console.info(
        `[ticket options race, control] ${inject('databaseDriver')}: ${JSON.stringify(result.ordersByType)}, ${result.discountedOrders} discounted`,
      );
      expect(early > EARLY_BIRD.maxTickets || front > FRONT_ROW.maxTickets).toBe(true);
      expect(result.discountedOrders).toBeGreaterThan(CODE_USES);
    });
  },
);
