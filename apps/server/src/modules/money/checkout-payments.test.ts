import type { ErrorBody } from '@stagedoor/shared/errors';
import type { Cancellation } from '@stagedoor/shared/money';
import type { Order } from '@stagedoor/shared/orders';
import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  createCreator,
  createEvent,
  createUser,
  type TestAccount,
} from '../../../test/factories';
import { unbalancedMovements } from '../ledger/ledger';
import { stripeWorld } from '../../../test/stripe-world';
import { ledgerTransactions, outbox, strayPayments } from '../../db/schema';

/** Which payments pay an order: only its own checkout, for its amount, and never on a cancelled event. */
const world = await stripeWorld();
const { standIn, app, storedOrder, checkout, deliverOk } = world;
afterAll(() => world.close());

const refundCallsFor = (paymentId: string) =>
  standIn.callsTo('POST', '/v1/refunds').filter((call) => call.params.payment_intent === paymentId);

async function movementKeys(prefix: string): Promise<string[]> {
  const rows = await app.deps.db.select({ key: ledgerTransactions.key }).from(ledgerTransactions);
  return rows.map((row) => row.key).filter((key) => key.startsWith(prefix));
}

async function cancel(creator: { token: string }, eventId: number): Promise<Cancellation> {
  const response = await api(app, {
    method: 'POST',
    url: `/api/events/${eventId}/cancel`,
    headers: authHeader(creator.token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Cancellation>();
}

describe('a paid checkout that is not the order’s own', () => {
  it("never completes the order it names: a $0.50 Payment Link naming a $500 order is paid back, the order's own checkout still pays it", async () => {
    const event = await createEvent(app, await createCreator(app), { price: 50, maxTickets: 50 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 10);
    const foreign = standIn.openSession({
      amountCents: 50,
      clientReferenceId: String(order.id),
      metadata: { orderId: String(order.id) },
    });

    await deliverOk(standIn.pay(foreign));

    expect(await storedOrder(order.id)).toMatchObject({ status: 'pending', paymentId: null });
    expect(await movementKeys(`sale:order:${order.id}`)).toEqual([]);
    const foreignPayment = String(standIn.get(foreign).payment_intent);
    const [stray] = await app.deps.db
      .select()
      .from(strayPayments)
      .where(eq(strayPayments.paymentId, foreignPayment));
    expect(stray).toMatchObject({
      checkoutSessionId: foreign,
      orderId: order.id,
      reason: 'foreign_checkout',
      amountCents: 50,
      providerRefundId: expect.stringMatching(/^re_/),
    });
    expect(refundCallsFor(foreignPayment).map((call) => call.params.amount)).toEqual(['50']);
    expect(await unbalancedMovements(app.deps.db)).toEqual([]);

    await deliverOk(standIn.pay(sessionId));
    expect(await storedOrder(order.id)).toMatchObject({ status: 'completed' });
    expect(await movementKeys(`sale:order:${order.id}`)).toEqual([`sale:order:${order.id}`]);
  });

  it.each([
    ['another amount', { amount_total: 1 }],
    ['another currency', { currency: 'eur' }],
  ])(
    "refunds the order's own checkout reported paid for %s, and leaves the order pending",
    async (_case, change) => {
      const event = await createEvent(app, await createCreator(app), { price: 20, maxTickets: 5 });
      const { order, sessionId } = await checkout(await createUser(app), event.id, 1);
      standIn.pay(sessionId);
      const session = standIn.get(sessionId);

      await deliverOk(standIn.event('checkout.session.completed', { ...session, ...change }));

      expect(await storedOrder(order.id)).toMatchObject({ status: 'pending' });
      expect(refundCallsFor(String(session.payment_intent))).toHaveLength(1);
      const [stray] = await app.deps.db
        .select()
        .from(strayPayments)
        .where(eq(strayPayments.checkoutSessionId, sessionId));
      expect(stray).toMatchObject({ orderId: order.id, reason: 'amount_mismatch' });
    },
  );

  it('lets the expiry of a checkout naming an order leave that order on hold', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 20, maxTickets: 5 });
    const { order } = await checkout(await createUser(app), event.id, 2);
    const foreign = standIn.openSession({ amountCents: 4000, metadata: { orderId: String(order.id) } });

    await deliverOk(standIn.expire(foreign));

    expect(await storedOrder(order.id)).toMatchObject({ status: 'pending' });
  });

  it('ignores a paid checkout that names no order of ours: not ours to take or to refund', async () => {
    const foreign = standIn.openSession({ amountCents: 900 });
    await deliverOk(standIn.pay(foreign));
    expect(refundCallsFor(String(standIn.get(foreign).payment_intent))).toEqual([]);
  });
});

describe('a payment for an order of a cancelled event', () => {
  it('made before the cancellation and reported after it ends refunded, never completed', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { price: 25, maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 2);
    // The fan pays; the cancellation comes before Stripe's notice does.
    const paid = standIn.pay(sessionId);

    expect(await cancel(creator, event.id)).toMatchObject({ refundedOrders: 0 });

    expect(await storedOrder(order.id)).toMatchObject({
      status: 'refunded',
      refundReason: 'cancelled',
      providerRefundId: expect.stringMatching(/^re_/),
    });
    await deliverOk(paid);
    expect(await storedOrder(order.id)).toMatchObject({ status: 'refunded', refundReason: 'cancelled' });
    const payment = String(standIn.get(sessionId).payment_intent);
    expect(refundCallsFor(payment).map((call) => call.params.amount)).toEqual(['5000']);
    const mail = await app.deps.db
      .select({ kind: outbox.kind })
      .from(outbox)
      .where(and(eq(outbox.key, `receipt:order:${order.id}`)));
    expect(mail).toEqual([]);
  });

  it('cleared by the bank after the cancellation ends refunded for the cancellation', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { price: 30, maxTickets: 5 });
    const { order, sessionId } = await checkout(await createUser(app), event.id, 1);
    await deliverOk(standIn.pay(sessionId, { processing: true }));
    await cancel(creator, event.id);

    await deliverOk(standIn.settleAsyncPayment(sessionId));

    expect(await storedOrder(order.id)).toMatchObject({
      status: 'refunded',
      refundReason: 'cancelled',
      providerRefundId: expect.stringMatching(/^re_/),
    });
  });
});

describe('the fan back from the checkout', () => {
  const confirm = (buyer: TestAccount, orderId: number, sessionId: string) =>
    api(app, {
      method: 'POST',
      url: `/api/orders/${orderId}/confirm`,
      headers: authHeader(buyer.token),
      payload: { sessionId },
    });

  it("is sent back with the checkout's id, and the order completes at once, before Stripe's notice", async () => {
    const buyer = await createUser(app);
    const event = await createEvent(app, await createCreator(app), { price: 25, maxTickets: 5 });
    const { order, sessionId } = await checkout(buyer, event.id, 1);
    const back = new URL(standIn.successUrlOf(sessionId));
    expect(back.pathname).toBe(`/purchase-confirmation/${event.id}/1`);
    expect(Object.fromEntries(back.searchParams)).toEqual({ order: String(order.id), session_id: sessionId });

    const unpaid = await confirm(buyer, order.id, sessionId);
    expect(unpaid.statusCode, unpaid.body).toBe(200);
    expect(unpaid.json<Order>().status).toBe('pending');

    standIn.pay(sessionId);
    const paid = await confirm(buyer, order.id, sessionId);
    expect(paid.json<Order>().status).toBe('completed');
    expect(await storedOrder(order.id)).toMatchObject({
      status: 'completed',
      paymentId: expect.stringMatching(/^pi_/),
    });
  });

  it("is told another checkout is not the order's, and another buyer's order is not found", async () => {
    const buyer = await createUser(app);
    const event = await createEvent(app, await createCreator(app), { price: 25, maxTickets: 5 });
    const { order } = await checkout(buyer, event.id, 1);
    const other = await checkout(await createUser(app), event.id, 1);

    const wrong = await confirm(buyer, order.id, other.sessionId);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json<ErrorBody>().fields).toEqual({ sessionId: 'This is not the checkout of this order' });
    const stranger = await confirm(await createUser(app), order.id, other.sessionId);
    expect(stranger.statusCode).toBe(404);
    expect(await storedOrder(order.id)).toMatchObject({ status: 'pending' });
  });
});
