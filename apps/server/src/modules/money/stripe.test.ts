import type { ErrorBody } from '@stagedoor/shared/errors';
import type { Event } from '@stagedoor/shared/events';
import type { Earnings } from '@stagedoor/shared/money';
import type { Order } from '@stagedoor/shared/orders';
import { and, asc, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTickets,
  createCreator,
  createEvent,
  createUser,
  getOk,
  storedTicketsLeft,
  type TestAccount,
} from '../../../test/factories';
import { stripeFee, type DeliveryOptions } from '../../../test/stripe-stand-in';
import { deploymentKey, stripeEnvOf, stripeWorld } from '../../../test/stripe-world';
import { createTestApp } from '../../../test/test-app';
import { accounts, events, ledgerTransactions, orders, stripeEvents, ticketTypes } from '../../db/schema';
import { createStripeWebhooks } from '../payments/stripe-payments';
import { sendRefunds } from './refunds';
import { expireHolds, runSettlement } from './settlement';

const HOLD_MS = 30 * 60_000;

const world = await stripeWorld();
const {
  standIn,
  app,
  payments,
  storedOrder,
  checkout,
  deliverOk,
  connectStripe,
  paidOrder,
  movementsOf,
  endEvent,
} = world;
afterAll(() => world.close());

const ticketsLeft = (eventId: number) => storedTicketsLeft(app, eventId);

/** The keys of an event's release movements, in the order they were written. */
async function movementKeysOf(eventId: number): Promise<string[]> {
  const rows = await app.deps.db
    .select({ key: ledgerTransactions.key })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.eventId, eventId), eq(ledgerTransactions.kind, 'release')))
    .orderBy(asc(ledgerTransactions.id));
  return rows.map((row) => row.key);
}

const isRecorded = async (eventId: string) =>
  (await app.deps.db.select().from(stripeEvents).where(eq(stripeEvents.id, eventId))).length === 1;

describe('POST /api/orders with PAYMENT_PROVIDER=stripe', () => {
  it('holds the tickets and answers a Stripe Checkout page that closes with the hold', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 12.5, maxTickets: 10 });
    const buyer = await createUser(app);
    const before = Date.now();
    const response = await buyTickets(app, buyer, event.id, 2);
    const after = Date.now();

    expect(response.statusCode, response.body).toBe(201);
    const order = response.json<Order>();
    const [session] = standIn
      .callsTo('POST', '/v1/checkout/sessions')
      .filter((call) => call.params.client_reference_id === String(order.id));
    expect(order).toMatchObject({ status: 'pending', quantity: 2, totalAmount: 25 });
    expect(order.checkoutUrl).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const expiresAt = Date.parse(order.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + HOLD_MS);
    expect(expiresAt).toBeLessThanOrEqual(after + HOLD_MS);
    expect(await ticketsLeft(event.id)).toBe(8);

    expect(session).toMatchObject({
      status: 200,
      idempotencyKey: deploymentKey(`checkout-order-${order.id}`),
      params: {
        mode: 'payment',
        line_items: [
          {
            quantity: '2',
            price_data: { currency: 'usd', unit_amount: '1250', product_data: { name: event.name } },
          },
        ],
        customer_email: buyer.email,
        client_reference_id: String(order.id),
        metadata: { orderId: String(order.id) },
      },
    });
    // Stripe's page never closes before the hold ends (the settlement job closes it then).
    const closesAt = Number(session?.params.expires_at) * 1000;
    expect(closesAt).toBeGreaterThanOrEqual(expiresAt);
    expect(closesAt).toBeLessThanOrEqual(expiresAt + 2 * 60_000);
    expect(String(session?.params.success_url)).toContain(`order=${order.id}`);
    const stored = await storedOrder(order.id);
    expect(standIn.get(stored.checkoutSessionId ?? '')).toMatchObject({
      status: 'open',
      url: order.checkoutUrl,
    });
  });

  it('answers a retry with the same Idempotency-Key with the same order and page, opening no second session', async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 10 });
    const buyer = await createUser(app);
    const first = await buyTickets(app, buyer, event.id, 3, 'double-click-1');
    const retry = await buyTickets(app, buyer, event.id, 3, 'double-click-1');

    expect(first.statusCode, first.body).toBe(201);
    expect(retry.statusCode, retry.body).toBe(200);
    const order = first.json<Order>();
    expect(retry.json<Order>()).toEqual(order);
    const sessions = standIn
      .callsTo('POST', '/v1/checkout/sessions')
      .filter((call) => call.params.client_reference_id === String(order.id));
    expect(sessions).toHaveLength(1);
    expect(await ticketsLeft(event.id)).toBe(7);
  });

  it('answers 503 and gives the tickets back when Stripe fails to open the checkout', async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 4 });
    standIn.failNext('POST /v1/checkout/sessions');
    const response = await buyTickets(app, await createUser(app), event.id, 3);

    expect(response.statusCode, response.body).toBe(503);
    expect(response.json<ErrorBody>()).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(standIn.calls.at(-1)).toMatchObject({ path: '/v1/checkout/sessions', status: 500 });
    expect(await ticketsLeft(event.id)).toBe(4);
    const [order] = await app.deps.db.select().from(orders).where(eq(orders.eventId, event.id));
    expect(order).toMatchObject({ status: 'expired', checkoutUrl: null });
  });

  it('lets no few accounts hold the last tickets unpaid: each hold takes at most a fifth of what is free', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 10, maxTickets: 25 });
    const squatters = [await createUser(app), await createUser(app), await createUser(app)];

    const greedy = await buyTickets(app, squatters[0] as TestAccount, event.id, 10);
    expect(greedy.statusCode).toBe(409);
    expect(greedy.json<ErrorBody>().fields).toEqual({
      quantity: 'The last tickets go a few per order: you can get 5 now',
    });
    // Each takes the most it may: a fifth of 25 free, then a group of 4.
    for (const [squatter, most] of [
      [squatters[0], 5],
      [squatters[1], 4],
      [squatters[2], 4],
    ] as const) {
      expect((await buyTickets(app, squatter as TestAccount, event.id, most)).statusCode).toBe(201);
    }

    expect(await ticketsLeft(event.id)).toBe(12);
    const fan = await buyTickets(app, await createUser(app), event.id, 4);
    expect(fan.statusCode, fan.body).toBe(201);
  });

  it('refuses a total under what a card can pay, for an event priced before that was the rule', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 1, maxTickets: 5 });
    await app.deps.db.update(events).set({ priceCents: 33 }).where(eq(events.id, event.id));
    await app.deps.db.update(ticketTypes).set({ priceCents: 33 }).where(eq(ticketTypes.eventId, event.id));
    const sessionsBefore = standIn.callsTo('POST', '/v1/checkout/sessions').length;

    const one = await buyTickets(app, await createUser(app), event.id, 1);

    expect(one.statusCode, one.body).toBe(409);
    expect(one.json<ErrorBody>().fields).toEqual({
      quantity: 'A card payment is at least $0.50: choose more tickets',
    });
    expect(standIn.callsTo('POST', '/v1/checkout/sessions')).toHaveLength(sessionsBefore);
    expect(await ticketsLeft(event.id)).toBe(5);
    const two = await buyTickets(app, await createUser(app), event.id, 2);
    expect(two.statusCode, two.body).toBe(201);
  });

  it("opens each deployment's own checkout when two deployments share one Stripe account", async () => {
    // Staging and production on one Stripe account: each numbers its orders from 1.
    const deployments = [
      await createTestApp(stripeEnvOf(standIn)),
      await createTestApp(stripeEnvOf(standIn)),
    ];
    try {
      const orders = [];
      for (const deployment of deployments) {
        const event = await createEvent(deployment, await createCreator(deployment), { price: 20 });
        const response = await buyTickets(deployment, await createUser(deployment), event.id, 1);
        expect(response.statusCode, response.body).toBe(201);
        orders.push(response.json<Order>());
      }
      expect(orders.map((order) => order.id)).toEqual([1, 1]);
      expect(orders[0]?.checkoutUrl).not.toBe(orders[1]?.checkoutUrl);
    } finally {
      await Promise.all(deployments.map((deployment) => deployment.close()));
    }
    // Two more apps, each migrating its own database: slow on a loaded machine.
  }, 120_000);
});

describe('POST /api/payments/stripe/webhook', () => {
  it('completes a paid order with the fee Stripe kept, and enters the sale in the ledger', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 12.5, maxTickets: 10 });
    const buyer = await createUser(app);
    const { order, sessionId } = await checkout(buyer, event.id, 2);
    const completed = standIn.pay(sessionId);
    const session = standIn.get(sessionId);
    const fee = stripeFee(2500);

    await deliverOk(completed);

    const mine = await api(app, { method: 'GET', url: '/api/orders', headers: authHeader(buyer.token) });
    expect(mine.json<Order[]>()).toEqual([
      { ...order, status: 'completed', checkoutUrl: null, expiresAt: null },
    ]);
    expect(await storedOrder(order.id)).toMatchObject({
      status: 'completed',
      paymentId: session.payment_intent,
      processorFeeCents: fee,
    });
    expect(standIn.callsTo('GET', `/v1/payment_intents/${String(session.payment_intent)}`)).toMatchObject([
      { params: { expand: ['latest_charge.balance_transaction'] } },
    ]);
    expect(await movementsOf(order.id)).toEqual({
      [`sale:order:${order.id}`]: {
        'buyers:gross': -2500,
        'processor:processor_fee': fee,
        'platform:platform_fee': 250,
        'creator_pending:net': 2500 - 250 - fee,
      },
    });
    expect(await ticketsLeft(event.id)).toBe(8);
    expect(await isRecorded(completed.id)).toBe(true);
  });

  it('applies each event once: a redelivery, another event for the same payment and a late expiry change nothing', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 20, maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 1);
    const completed = standIn.pay(sessionId, { fee: 88 });
    await deliverOk(completed);
    const applied = await storedOrder(order.id);
    const callsBefore = standIn.calls.length;

    await deliverOk(completed);
    // A redelivered event is known by its id: not even Stripe is asked again.
    expect(standIn.calls).toHaveLength(callsBefore);

    const again = standIn.event('checkout.session.completed', standIn.get(sessionId));
    await deliverOk(again);
    const expired = standIn.event('checkout.session.expired', {
      ...standIn.get(sessionId),
      status: 'expired',
    });
    await deliverOk(expired);

    expect(await storedOrder(order.id)).toEqual(applied);
    expect(Object.keys(await movementsOf(order.id))).toEqual([`sale:order:${order.id}`]);
    expect(await ticketsLeft(event.id)).toBe(4);
    expect(standIn.calls.slice(callsBefore).every((call) => call.method === 'GET')).toBe(true);
    expect([await isRecorded(again.id), await isRecorded(expired.id)]).toEqual([true, true]);
  });

  it('expires an unpaid order and puts its tickets back on sale', async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 2);
    expect(await ticketsLeft(event.id)).toBe(3);

    await deliverOk(standIn.expire(sessionId));

    expect(await storedOrder(order.id)).toMatchObject({ status: 'expired' });
    expect(await ticketsLeft(event.id)).toBe(5);
    expect(await movementsOf(order.id)).toEqual({});
  });

  it('completes a payment reported after the hold ran out while tickets are left', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 10, maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 2);
    // Stripe's expiry is seen first: the hold ends and the tickets go back on sale.
    await deliverOk(
      standIn.event('checkout.session.expired', { ...standIn.get(sessionId), status: 'expired' }),
    );
    expect(await ticketsLeft(event.id)).toBe(5);

    await deliverOk(standIn.pay(sessionId));

    expect(await storedOrder(order.id)).toMatchObject({ status: 'completed', refundReason: null });
    expect(await ticketsLeft(event.id)).toBe(3);
    expect(Object.keys(await movementsOf(order.id))).toEqual([`sale:order:${order.id}`]);
  });

  it('refunds a payment reported after the hold ran out and another fan took the tickets, once', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 12.5, maxTickets: 2 });
    const late = await checkout(await createUser(app), event.id, 2);
    await deliverOk(
      standIn.event('checkout.session.expired', { ...standIn.get(late.sessionId), status: 'expired' }),
    );
    await checkout(await createUser(app), event.id, 2);
    expect(await ticketsLeft(event.id)).toBe(0);

    await deliverOk(standIn.pay(late.sessionId));

    const refunded = await storedOrder(late.order.id);
    expect(refunded).toMatchObject({ status: 'refunded', refundReason: 'late_payment' });
    expect(await ticketsLeft(event.id)).toBe(0);
    const movements = await movementsOf(late.order.id);
    expect(Object.keys(movements).sort()).toEqual([
      `refund:order:${late.order.id}`,
      `sale:order:${late.order.id}`,
    ]);
    expect(movements[`refund:order:${late.order.id}`]?.['buyers:gross']).toBe(2500);

    // The refund job pays the fan back through Stripe, once however often it runs.
    await sendRefunds(app.deps);
    await sendRefunds(app.deps);
    const refunds = standIn
      .callsTo('POST', '/v1/refunds')
      .filter((call) => call.params.payment_intent === refunded.paymentId);
    expect(refunds).toMatchObject([
      {
        status: 200,
        idempotencyKey: deploymentKey(`refund-order-${late.order.id}-attempt-1`),
        params: { amount: '2500' },
      },
    ]);
    const { providerRefundId } = await storedOrder(late.order.id);
    expect(standIn.get(providerRefundId ?? '')).toMatchObject({ object: 'refund', amount: 2500 });
  });

  it('holds the tickets of a bank payment past the hold until it clears, then completes it', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 30, maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 1);
    await deliverOk(standIn.pay(sessionId, { processing: true }));
    expect(await storedOrder(order.id)).toMatchObject({ status: 'pending', expiresAt: null });

    // Long past the hold's end: the bank has not answered, and the tickets stay the fan's.
    await expireHolds(app.deps, new Date(Date.now() + 3 * HOLD_MS));
    expect(await storedOrder(order.id)).toMatchObject({ status: 'pending' });
    expect(await ticketsLeft(event.id)).toBe(4);

    await deliverOk(standIn.settleAsyncPayment(sessionId));

    expect(await storedOrder(order.id)).toMatchObject({
      status: 'completed',
      processorFeeCents: stripeFee(3000),
    });
    expect(await ticketsLeft(event.id)).toBe(4);
  });

  it('keeps the tickets of a bank payment whose completion the hold job hears of first', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 30, maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 2);
    standIn.pay(sessionId, { processing: true });
    await app.deps.db
      .update(orders)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(orders.id, order.id));

    await expireHolds(app.deps, new Date());

    expect(await storedOrder(order.id)).toMatchObject({ status: 'pending', expiresAt: null });
    expect(await ticketsLeft(event.id)).toBe(3);
  });

  it("releases a bank payment that clears after the event's earnings were released: nothing stays pending", async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { price: 20, maxTickets: 5 });
    const card = await checkout(await createUser(app), event.id, 1);
    await deliverOk(standIn.pay(card.sessionId));
    const bank = await checkout(await createUser(app), event.id, 1);
    await deliverOk(standIn.pay(bank.sessionId, { processing: true }));
    await endEvent(event.id);
    await runSettlement(app.deps, new Date());
    const balance = () =>
      getOk<Earnings>(app, '/api/earnings', creator.token).then((earnings) => earnings.balance);
    expect((await balance()).pending).toBe(0);

    await deliverOk(standIn.settleAsyncPayment(bank.sessionId));
    expect(await storedOrder(bank.order.id)).toMatchObject({ status: 'completed' });
    const nets = 2 * (2000 - 200 - stripeFee(2000));
    expect((await balance()).pending).toBeGreaterThan(0);
    await runSettlement(app.deps, new Date());

    const after = await balance();
    expect(after.pending).toBe(0);
    expect(Math.round((after.available + after.reserved) * 100)).toBe(nets);
    expect(await movementKeysOf(event.id)).toEqual([
      `release:event:${event.id}`,
      `release:event:${event.id}:2`,
    ]);
  });

  it("gives a failed bank payment's tickets back", async () => {
    const event = await createEvent(app, await createCreator(app), { price: 30, maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 1);
    await deliverOk(standIn.pay(sessionId, { processing: true }));

    await deliverOk(standIn.event('checkout.session.async_payment_failed', standIn.get(sessionId)));

    expect(await storedOrder(order.id)).toMatchObject({ status: 'expired' });
    expect(await ticketsLeft(event.id)).toBe(5);
  });

  it.each<[string, (event: Stripe.Event) => DeliveryOptions]>([
    ['signed with another secret', () => ({ secret: 'whsec_not_the_endpoints_secret' })],
    [
      'with a body other than the one signed',
      (event) => ({ tamperedBody: JSON.stringify({ ...event, type: 'checkout.session.expired' }, null, 2) }),
    ],
    ['without a Stripe-Signature header', () => ({ unsigned: true })],
    ['signed more than five minutes ago', () => ({ timestamp: Math.floor(Date.now() / 1000) - 301 })],
  ])('refuses an event %s with 400, changing nothing', async (_case, forgery) => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 1);
    const completed = standIn.pay(sessionId);

    const response = await standIn.deliver(app, completed, forgery(completed));

    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Invalid Stripe signature',
      fields: { 'stripe-signature': expect.any(String) },
    });
    expect(await storedOrder(order.id)).toMatchObject({ status: 'pending' });
    expect(await isRecorded(completed.id)).toBe(false);
    // The control: the same event, signed as Stripe signs it, is accepted.
    await deliverOk(completed);
    expect(await storedOrder(order.id)).toMatchObject({ status: 'completed' });
  });

  it('ignores an event of live mode when the keys are test keys', async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 1);
    standIn.pay(sessionId);
    const live = standIn.event('checkout.session.completed', standIn.get(sessionId), { livemode: true });

    await deliverOk(live);

    expect(await storedOrder(order.id)).toMatchObject({ status: 'pending' });
    expect(await isRecorded(live.id)).toBe(false);
  });

  it('answers other events with 200 and records them', async () => {
    const other = standIn.event('customer.created', { id: 'cus_test_1', object: 'customer' });
    await deliverOk(other);
    expect(await isRecorded(other.id)).toBe(true);
  });

  it('keeps whether a creator can be paid out as Stripe says, whatever the order of account.updated events', async () => {
    const creator = await createCreator(app);
    const accountId = await connectStripe(creator);
    expect(standIn.callsTo('POST', '/v1/accounts')).toContainEqual(
      expect.objectContaining({
        idempotencyKey: deploymentKey(`account-creator-${creator.user.id}`),
        params: expect.objectContaining({
          controller: expect.objectContaining({ stripe_dashboard: { type: 'express' } }),
          country: 'US',
          email: creator.email,
          metadata: { creatorId: String(creator.user.id) },
        }),
      }),
    );
    const payoutsEnabled = async () =>
      (await app.deps.db.select().from(accounts).where(eq(accounts.id, creator.user.id)))[0]
        ?.stripePayoutsEnabled;
    const beforeOnboarding = standIn.event('account.updated', standIn.get(accountId));

    await deliverOk(standIn.completeOnboarding(accountId));
    expect(await payoutsEnabled()).toBe(true);

    // An older snapshot delivered late does not undo what Stripe says now.
    await deliverOk(beforeOnboarding);
    expect(await payoutsEnabled()).toBe(true);
  });
});

describe('Stripe behind CardPayments', () => {
  it('closes an open checkout, and answers what became of one completed meanwhile', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 15, maxTickets: 5 });
    const open = await checkout(await createUser(app), event.id, 1);
    const paid = await checkout(await createUser(app), event.id, 2);
    const clearing = await checkout(await createUser(app), event.id, 1);
    standIn.pay(paid.sessionId, { fee: 123 });
    standIn.pay(clearing.sessionId, { processing: true });

    expect(await payments().closeCheckout(open.sessionId)).toEqual({ closed: 'unpaid' });
    expect(standIn.get(open.sessionId)).toMatchObject({ status: 'expired' });
    expect(await payments().closeCheckout(paid.sessionId)).toEqual({
      closed: 'paid',
      payment: {
        paymentId: standIn.get(paid.sessionId).payment_intent,
        chargeId: expect.stringMatching(/^ch_/),
        amountCents: 3000,
        processorFeeCents: 123,
      },
    });
    expect(await payments().closeCheckout(clearing.sessionId)).toEqual({
      closed: 'processing',
      paymentId: standIn.get(clearing.sessionId).payment_intent,
    });
    expect(await payments().closeCheckout('cs_test_unknown')).toEqual({ closed: 'unpaid' });
  });
});

describe('Stripe webhook signatures', () => {
  it('accept an event signed with any of the listed secrets (the account and the Connect endpoint)', () => {
    const webhooks = createStripeWebhooks({
      secretKey: standIn.secretKey,
      webhookSecrets: [standIn.webhookSecret, 'whsec_connect_endpoint'],
      apiUrl: standIn.url,
    });
    const event = standIn.event('account.updated', { id: 'acct_test_1', object: 'account' });
    const payload = JSON.stringify(event);
    const signedWith = (secret: string) => Stripe.webhooks.generateTestHeaderString({ payload, secret });

    for (const secret of [standIn.webhookSecret, 'whsec_connect_endpoint']) {
      expect(webhooks.verify(Buffer.from(payload), signedWith(secret)).id).toBe(event.id);
    }
    expect(() => webhooks.verify(Buffer.from(payload), signedWith('whsec_elsewhere'))).toThrow(
      'Invalid Stripe signature',
    );
  });
});

describe('POST /api/payments/stripe/webhook with PAYMENT_PROVIDER=none', () => {
  it('does not exist', async () => {
    const withoutPayments = await createTestApp();
    try {
      const event = standIn.event('customer.created', { id: 'cus_test_2', object: 'customer' });
      const response = await standIn.deliver(withoutPayments, event);
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorBody>().code).toBe('NOT_FOUND');
    } finally {
      await withoutPayments.close();
    }
  });
});

describe('cancellations through Stripe', () => {
  it("refunds a cancelled event's paid orders through Stripe once, and closes its open checkouts", async () => {
    const creator = await createCreator(app);
    const { event, order } = await paidOrder(creator, 20, 2);
    const open = await checkout(await createUser(app), event.id, 1);

    const response = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}/cancel`,
      headers: authHeader(creator.token),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ refundedOrders: 1, refunded: 40, penalty: 0 });
    await sendRefunds(app.deps);

    expect(await storedOrder(order.id)).toMatchObject({
      status: 'refunded',
      refundReason: 'cancelled',
      providerRefundId: expect.stringMatching(/^re_/),
    });
    expect(
      standIn
        .callsTo('POST', '/v1/refunds')
        .filter((call) => call.idempotencyKey?.endsWith(`:refund-order-${order.id}-attempt-1`))
        .map((call) => call.params),
    ).toEqual([expect.objectContaining({ payment_intent: order.paymentId, amount: '4000' })]);
    expect(await storedOrder(open.order.id)).toMatchObject({ status: 'expired' });
    expect(standIn.get(open.sessionId)).toMatchObject({ status: 'expired' });
  });
});
