import type { ErrorBody } from '@stagedoor/shared/errors';
import type { Event } from '@stagedoor/shared/events';
import type { Order } from '@stagedoor/shared/orders';
import type { WaitlistPlace } from '@stagedoor/shared/waitlist';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTickets,
  createCreator,
  createEvent,
  createUser,
  type TestAccount,
} from '../../../test/factories';
import { stripeWorld } from '../../../test/stripe-world';
import { events, orders, outbox } from '../../db/schema';
import { renderMail } from '../mail/messages';
import { expireHolds } from '../money/settlement';

/** The waitlist with Stripe (its stand-in) as the provider: tickets come back by expiry, refund and stock. */
const world = await stripeWorld();
const { standIn, app, checkout, deliverOk, storedOrder } = world;
afterAll(() => world.close());

const HOLD_MINUTES = app.deps.config.waitlistHoldMinutes;
const MINUTE_MS = 60_000;

const call = (who: TestAccount | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  api(app, { method, url, ...(who && { headers: authHeader(who.token) }), ...(payload && { payload }) });

const placeOf = async (fan: TestAccount, event: Event) => {
  const response = await call(fan, 'GET', `/api/events/${event.id}/waitlist`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<WaitlistPlace>();
};

async function join(fan: TestAccount, event: Event, quantity = 1): Promise<WaitlistPlace> {
  const response = await call(fan, 'POST', `/api/events/${event.id}/waitlist`, { quantity });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<WaitlistPlace>();
}

/** A fan's pending order and the Stripe session they paid it with, delivered to the app. */
async function paid(fan: TestAccount, event: Event, quantity = 1) {
  const { order, sessionId } = await checkout(fan, event.id, quantity);
  await deliverOk(standIn.pay(sessionId));
  return storedOrder(order.id);
}

const soldOf = async (event: Event) =>
  (await app.deps.db.select({ sold: events.sold }).from(events).where(eq(events.id, event.id)))[0]?.sold;

/** The waitlist mail queued for a fan's turn, rendered as the fan reads it. */
async function offerMail(orderId: number) {
  const [mail] = await app.deps.db
    .select()
    .from(outbox)
    .where(eq(outbox.key, `waitlist-offer:order:${orderId}`));
  if (!mail) throw new Error(`no waitlist mail for order ${orderId}`);
  return {
    to: mail.toAddress,
    ...renderMail(mail.kind as 'waitlist-offer', mail.data, {
      siteUrl: 'https://stagedoor.test',
      remindersOff: () => '',
    }),
  };
}

describe('joining a waitlist', () => {
  it('is for a sold-out show, once per fan, within their limit, and never for its creator', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { price: 20, maxTickets: 3 });
    const [first, second, third] = await Promise.all([createUser(app), createUser(app), createUser(app)]);

    const early = await call(first, 'POST', `/api/events/${event.id}/waitlist`, { quantity: 1 });
    expect(early.statusCode).toBe(409);
    expect(early.json<ErrorBody>().fields).toEqual({
      quantity: 'These tickets are still on sale: buy them now',
    });
    await paid(first, event, 2);
    // One ticket is left: a fan who wants two may wait for them, one who wants one may not.
    expect((await call(second, 'POST', `/api/events/${event.id}/waitlist`, { quantity: 1 })).statusCode).toBe(
      409,
    );
    expect(await join(second, event, 2)).toEqual({
      status: 'waiting',
      quantity: 2,
      position: 1,
      offer: null,
    });
    const twice = await call(second, 'POST', `/api/events/${event.id}/waitlist`, { quantity: 2 });
    expect(twice.statusCode).toBe(409);
    expect(twice.json<ErrorBody>().message).toBe('You are already on the waitlist for this event');
    // The per-buyer limit is the event's stock here (3): the first fan holds 2 already.
    const overLimit = await call(first, 'POST', `/api/events/${event.id}/waitlist`, { quantity: 2 });
    expect(overLimit.statusCode).toBe(409);
    expect(overLimit.json<ErrorBody>().fields).toEqual({
      quantity: 'You can get 1 more ticket for this event',
    });
    expect(
      (await call(creator, 'POST', `/api/events/${event.id}/waitlist`, { quantity: 2 })).statusCode,
    ).toBe(403);
    expect((await call(null, 'POST', `/api/events/${event.id}/waitlist`, { quantity: 2 })).statusCode).toBe(
      401,
    );
    expect((await call(third, 'POST', '/api/events/999999/waitlist', { quantity: 2 })).statusCode).toBe(404);
    for (const quantity of [0, -1, 1.5, 'two', 1e9]) {
      const bad = await call(third, 'POST', `/api/events/${event.id}/waitlist`, { quantity });
      expect(bad.statusCode, String(quantity)).toBe(400);
      expect(Object.keys(bad.json<ErrorBody>().fields ?? {})).toEqual(['quantity']);
    }

    expect(await join(third, event, 2)).toMatchObject({ status: 'waiting', position: 2 });
    const left = await call(second, 'DELETE', `/api/events/${event.id}/waitlist`);
    expect(left.statusCode).toBe(204);
    expect(await placeOf(second, event)).toEqual({
      status: 'none',
      quantity: null,
      position: null,
      offer: null,
    });
    expect(await placeOf(third, event)).toMatchObject({ status: 'waiting', position: 1 });
    // Leaving twice changes nothing.
    expect((await call(second, 'DELETE', `/api/events/${event.id}/waitlist`)).statusCode).toBe(204);
  });

  it('two joins of one fan at once leave one place in line', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 20, maxTickets: 1 });
    await paid(await createUser(app), event);
    const fan = await createUser(app);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => call(fan, 'POST', `/api/events/${event.id}/waitlist`, { quantity: 1 })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, ...Array<number>(7).fill(409)]);
    expect(await placeOf(fan, event)).toMatchObject({ status: 'waiting', position: 1 });
  });
});

describe('tickets coming back', () => {
  it('a refunded ticket goes to the first fan in line, and the hold running out moves it to the next', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 20, maxTickets: 1 });
    const buyer = await createUser(app);
    const bought = await paid(buyer, event);
    const [first, second] = await Promise.all([createUser(app), createUser(app)]);
    await join(first, event);
    await join(second, event);

    // Stagedoor's team refunds the paid order in Stripe's Dashboard: its ticket is the first fan's turn.
    const before = Date.now();
    await deliverOk(standIn.dashboardRefund(bought.paymentId ?? ''));
    expect((await storedOrder(bought.id)).status).toBe('refunded');
    const place = await placeOf(first, event);
    expect(place).toMatchObject({
      status: 'offered',
      quantity: 1,
      position: null,
      offer: { ticketType: 'General admission', total: 20 },
    });
    const offerId = place.offer?.orderId ?? 0;
    const held = await storedOrder(offerId);
    expect(held).toMatchObject({
      status: 'pending',
      accountId: first.user.id,
      totalCents: 2000,
      checkoutUrl: null,
    });
    const holdEnd = held.expiresAt?.getTime() ?? 0;
    expect(holdEnd).toBeGreaterThanOrEqual(before + HOLD_MINUTES * MINUTE_MS);
    expect(holdEnd).toBeLessThanOrEqual(Date.now() + HOLD_MINUTES * MINUTE_MS);
    expect(await soldOf(event)).toBe(1);
    expect(await placeOf(second, event)).toMatchObject({ status: 'waiting', position: 1 });
    const mail = await offerMail(offerId);
    expect(mail.to).toBe(first.email);
    expect(mail.subject).toBe(`Tickets to ${event.name} are waiting for you`);
    expect(mail.text).toContain('We are holding 1 ticket for you until');
    expect(mail.text).toContain('$20.00 in total. After that they go to the next fan in line.');
    expect(mail.text).toContain(`Get your tickets: https://stagedoor.test/events/${event.id}?held`);
    // Nobody else can buy the ticket meanwhile.
    expect((await buyTickets(app, await createUser(app), event.id, 1)).statusCode).toBe(409);

    // The hold runs out unpaid: over at once for the fan, then the settlement job gives the next fan their turn.
    await app.deps.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, offerId));
    expect(await placeOf(first, event)).toMatchObject({ status: 'none' });
    await expireHolds(app.deps, new Date());
    expect((await storedOrder(offerId)).status).toBe('expired');
    expect(await placeOf(first, event)).toMatchObject({ status: 'none' });
    const next = await placeOf(second, event);
    expect(next).toMatchObject({ status: 'offered', quantity: 1 });
    expect(await soldOf(event)).toBe(1);
    // Their turn ended: the first fan's checkout of it is refused.
    const late = await call(first, 'POST', `/api/orders/${offerId}/checkout`);
    expect(late.statusCode).toBe(409);
    expect(late.json<ErrorBody>().message).toBe('These tickets are no longer held for you');

    // The second fan buys: a Stripe checkout of at least its own hold, then paid.
    const nextId = next.offer?.orderId ?? 0;
    expect((await call(first, 'POST', `/api/orders/${nextId}/checkout`)).statusCode).toBe(404);
    const opened = await call(second, 'POST', `/api/orders/${nextId}/checkout`);
    expect(opened.statusCode, opened.body).toBe(200);
    const order = opened.json<Order>();
    expect(order).toMatchObject({
      status: 'pending',
      checkoutUrl: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//),
    });
    const again = await call(second, 'POST', `/api/orders/${nextId}/checkout`);
    expect(again.json<Order>().checkoutUrl).toBe(order.checkoutUrl);
    const { checkoutSessionId } = await storedOrder(nextId);
    await deliverOk(standIn.pay(checkoutSessionId ?? ''));
    expect((await storedOrder(nextId)).status).toBe('completed');
    expect(await placeOf(second, event)).toMatchObject({ status: 'none' });
    expect(await soldOf(event)).toBe(1);
  });

  it('a raised stock goes to the line; a free turn is taken at once, with no provider and no fee', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { price: 0, maxTickets: 1 });
    expect((await buyTickets(app, await createUser(app), event.id, 1)).statusCode).toBe(201);
    const fan = await createUser(app);
    await join(fan, event);
    const sessions = standIn.callsTo('POST', '/v1/checkout/sessions').length;

    const raised = await call(creator, 'POST', `/api/events/${event.id}`, { maxTickets: 3 });
    expect(raised.statusCode, raised.body).toBe(200);
    // One of the two new tickets is the fan's turn; the other is on sale.
    expect(raised.json<Event>().ticketsLeft).toBe(1);
    const place = await placeOf(fan, event);
    expect(place).toMatchObject({ status: 'offered', offer: { total: 0 } });
    const taken = await call(fan, 'POST', `/api/orders/${place.offer?.orderId}/checkout`);
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.json<Order>()).toMatchObject({ status: 'completed', totalAmount: 0 });
    expect(standIn.callsTo('POST', '/v1/checkout/sessions')).toHaveLength(sessions);
    const [receipt] = await app.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.key, `receipt:order:${place.offer?.orderId}`));
    expect(receipt?.toAddress).toBe(fan.email);
    // Taken twice: the order as it is.
    expect(
      (await call(fan, 'POST', `/api/orders/${place.offer?.orderId}/checkout`)).json<Order>().status,
    ).toBe('completed');
  });

  it('a fan who leaves while tickets are held for them lets them go to the next fan at once', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 20, maxTickets: 1 });
    const { order } = await checkout(await createUser(app), event.id, 1);
    const [first, second] = await Promise.all([createUser(app), createUser(app)]);
    await join(first, event);
    await join(second, event);
    // The buyer's checkout expires at Stripe unpaid: the first fan's turn.
    const { checkoutSessionId } = await storedOrder(order.id);
    await deliverOk(standIn.expire(checkoutSessionId ?? ''));
    const offered = await placeOf(first, event);
    expect(offered.status).toBe('offered');
    expect((await call(first, 'DELETE', `/api/events/${event.id}/waitlist`)).statusCode).toBe(204);
    expect((await storedOrder(offered.offer?.orderId ?? 0)).status).toBe('expired');
    expect(await placeOf(second, event)).toMatchObject({ status: 'offered' });
    expect(await soldOf(event)).toBe(1);
  });

  it('passes over a fan whose tickets do not fit, who keeps their place', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { price: 20, maxTickets: 2 });
    await paid(await createUser(app), event, 2);
    const [many, one] = await Promise.all([createUser(app), createUser(app)]);
    await join(many, event, 2);
    await join(one, event, 1);
    expect((await call(creator, 'POST', `/api/events/${event.id}`, { maxTickets: 3 })).statusCode).toBe(200);
    expect(await placeOf(many, event)).toMatchObject({ status: 'waiting', position: 1 });
    expect(await placeOf(one, event)).toMatchObject({ status: 'offered', quantity: 1 });
    const pending = await app.deps.db
      .select()
      .from(orders)
      .where(and(eq(orders.eventId, event.id), eq(orders.status, 'pending')));
    expect(pending.map((row) => row.accountId)).toEqual([one.user.id]);
  });
});
