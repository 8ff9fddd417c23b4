import { randomUUID } from 'node:crypto';
import { and, eq, inArray, ne, or, sum } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { balances, earnedNet } from '../../../test/ledger';
import { unbalancedMovements } from '../ledger/ledger';
import { createTestApp } from '../../../test/test-app';
import { accounts, events, orders, payouts, type AccountRow, type EventRow } from '../../db/schema';
import { AppError } from '../../errors';
import { cancelEvent, refundEvent } from './cancellation';
import { expireOrder, payOrder } from '../orders/order-lifecycle';
import { runSettlement } from './settlement';

const app = await createTestApp();
afterAll(() => app.close());
const { db } = app.deps;

const HOUR_MS = 3_600_000;
const HOLD_MS = 30 * 60_000;

/** One step of the model: what a fan, a creator, the provider, the operator or the clock does. */
type Action =
  | { type: 'buy'; fan: number; event: number; quantity: number; hold: boolean }
  | { type: 'pay'; order: number }
  | { type: 'expire'; order: number }
  | { type: 'cancel'; event: number }
  | { type: 'outage'; event: number }
  | { type: 'advance'; hours: number }
  | { type: 'settle' };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      type: fc.constant('buy' as const),
      fan: fc.nat(3),
      event: fc.nat(3),
      quantity: fc.integer({ min: 1, max: 3 }),
      hold: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('pay' as const), order: fc.nat(20) }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('expire' as const), order: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('cancel' as const), event: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('outage' as const), event: fc.nat(3) }) },
  {
    weight: 2,
    arbitrary: fc.record({ type: fc.constant('advance' as const), hours: fc.integer({ min: 1, max: 800 }) }),
  },
  { weight: 2, arbitrary: fc.constant({ type: 'settle' as const }) },
);

interface World {
  creators: AccountRow[];
  fans: AccountRow[];
  events: EventRow[];
  orderIds: number[];
  now: Date;
}

async function insertAccount(role: 'creator' | 'user', foundingPartner = false): Promise<AccountRow> {
  const [row] = await db
    .insert(accounts)
    .values({
      email: `${role}-${randomUUID()}@example.test`,
      passwordHash: 'not-a-hash',
      role,
      firstName: 'Model',
      lastName: role,
      nickname: `model-${randomUUID()}`,
      foundingPartner,
    })
    .returning();
  if (!row) throw new Error('no account');
  return row;
}

/** Two creators (one a founding partner) with two events each, one soon and one later; four fans. */
async function newWorld(): Promise<World> {
  const now = new Date();
  const creators = [await insertAccount('creator', true), await insertAccount('creator')];
  const plans = [
    { creator: 0, inHours: 12, priceCents: 1250, maxTickets: 6 },
    { creator: 0, inHours: 72, priceCents: 500, maxTickets: 4 },
    { creator: 1, inHours: 30, priceCents: 2000, maxTickets: 5 },
    { creator: 1, inHours: 200, priceCents: 0, maxTickets: 3 },
  ];
  const rows = await db
    .insert(events)
    .values(
      plans.map((plan) => ({
        creatorId: (creators[plan.creator] as AccountRow).id,
        name: 'Model show',
        description: 'A show of the model',
        priceCents: plan.priceCents,
        maxTickets: plan.maxTickets,
        date: new Date(now.getTime() + plan.inHours * HOUR_MS),
      })),
    )
    .returning();
  const fans = [];
  for (let n = 0; n < 4; n += 1) fans.push(await insertAccount('user'));
  return { creators, fans, events: rows, orderIds: [], now };
}

/** What the provider reports for a paid order: Stripe's 2.9 % + 30 cents. */
const processorFee = (totalCents: number) => Math.round(totalCents * 0.029) + 30;

/** Refusals are part of the model (cancelling twice, refunding released earnings); crashes are not. */
async function refusalsAllowed(step: () => Promise<unknown>): Promise<void> {
  try {
    await step();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
  }
}

async function apply(world: World, step: Action): Promise<void> {
  const at = (list: number[], index: number) => list[index % Math.max(list.length, 1)];
  switch (step.type) {
    case 'buy': {
      const fan = world.fans[step.fan] as AccountRow;
      const event = world.events[step.event] as EventRow;
      const placed = await app.deps.placeOrder(
        db,
        {
          accountId: fan.id,
          eventId: event.id,
          quantity: step.quantity,
          unitPriceCents: null,
          idempotencyKey: null,
          requestHash: null,
        },
        { now: world.now, holdUntil: step.hold ? new Date(world.now.getTime() + HOLD_MS) : null },
      );
      if (placed) world.orderIds.push(placed.order.id);
      return;
    }
    case 'pay': {
      const id = at(world.orderIds, step.order);
      if (id === undefined) return;
      const [order] = await db.select().from(orders).where(eq(orders.id, id));
      if (!order) return;
      await payOrder(
        db,
        id,
        {
          paymentId: `pi_${id}`,
          chargeId: `ch_${id}`,
          amountCents: order.totalCents,
          processorFeeCents: processorFee(order.totalCents),
        },
        world.now,
      );
      return;
    }
    case 'expire': {
      const id = at(world.orderIds, step.order);
      if (id !== undefined) await expireOrder(db, id);
      return;
    }
    case 'cancel': {
      const event = world.events[step.event] as EventRow;
      const creator = world.creators.find((candidate) => candidate.id === event.creatorId) as AccountRow;
      await refusalsAllowed(() => cancelEvent(app.deps, creator, event.id, world.now));
      return;
    }
    case 'outage': {
      const event = world.events[step.event] as EventRow;
      await refusalsAllowed(() => refundEvent(app.deps, event.id, 'outage', world.now));
      return;
    }
    case 'advance':
      world.now = new Date(world.now.getTime() + step.hours * HOUR_MS);
      return;
    case 'settle':
      await runSettlement(app.deps, world.now);
  }
}

/** Everything that must hold after every step; answers the broken rules, none when all hold. */
async function brokenRules(world: World): Promise<string[]> {
  const broken: string[] = [];
  const unbalanced = await unbalancedMovements(db);
  if (unbalanced.length > 0) broken.push(`unbalanced: ${unbalanced.join(', ')}`);
  const byCreator = await balances(db);
  const earned = await earnedNet(db);
  for (const creator of world.creators) {
    const balance = byCreator.get(creator.id) ?? {};
    const { net, penalties } = earned.get(creator.id) ?? { net: 0, penalties: 0 };
    const available = balance.creator_available ?? 0;
    // Decided payouts, transferred or not: without a provider they all stay due.
    const paidOut = (balance.creator_due ?? 0) + (balance.creator_paid_out ?? 0);
    for (const account of [
      'creator_pending',
      'creator_reserve',
      'creator_due',
      'creator_paid_out',
    ] as const) {
      if ((balance[account] ?? 0) < 0) broken.push(`${account} of ${creator.id} is ${balance[account]}`);
    }
    if (available < -penalties) broken.push(`available ${available} below the penalties' debt ${-penalties}`);
    if (available + paidOut > net)
      broken.push(`available ${available} + paid out ${paidOut} > net earned ${net}`);
    const [paid] = await db
      .select({ total: sum(payouts.amountCents).mapWith(Number) })
      .from(payouts)
      .where(eq(payouts.creatorId, creator.id));
    if ((paid?.total ?? 0) !== paidOut) broken.push(`payouts ${paid?.total} != paid out ${paidOut}`);
  }
  for (const event of world.events) {
    const [stored] = await db.select().from(events).where(eq(events.id, event.id));
    const [completedOnCancelled] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.eventId, event.id), eq(orders.status, 'completed')));
    if (stored?.cancelledAt && completedOnCancelled) {
      broken.push(`order ${completedOnCancelled.id} is completed on cancelled event ${event.id}`);
    }
    // Refunded tickets stay taken (refunds only come once an event stops selling), unless the payment
    // came too late to take any.
    const [taken] = await db
      .select({ tickets: sum(orders.quantity).mapWith(Number) })
      .from(orders)
      .where(
        and(
          eq(orders.eventId, event.id),
          or(
            inArray(orders.status, ['pending', 'completed']),
            and(eq(orders.status, 'refunded'), ne(orders.refundReason, 'late_payment')),
          ),
        ),
      );
    if (stored && stored.sold > stored.maxTickets) broken.push(`event ${event.id} oversold`);
    // A cancelled event never sells again: a payment landing after it may be refunded without tickets.
    if (stored && !stored.cancelledAt && stored.sold !== (taken?.tickets ?? 0)) {
      broken.push(`event ${event.id} counts ${stored.sold} sold for ${taken?.tickets ?? 0} taken`);
    }
  }
  return broken;
}

describe('the ledger under random purchases, payments, expiries, refunds, cancellations, clock moves and payouts', () => {
  it('balances, keeps balances from going negative but for penalties, and never pays out more than was earned', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 5, maxLength: 30 }), async (steps) => {
        const world = await newWorld();
        for (const [index, step] of steps.entries()) {
          await apply(world, step);
          const broken = await brokenRules(world);
          if (broken.length > 0)
            throw new Error(`after step ${index} ${JSON.stringify(step)}: ${broken.join('; ')}`);
        }
      }),
      { numRuns: 25 },
    );
    expect(await unbalancedMovements(db)).toEqual([]);
  });
});
