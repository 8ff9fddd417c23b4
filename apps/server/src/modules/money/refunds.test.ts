import { DISPUTE_FEE_CENTS, type Earnings } from '@stagedoor/shared/money';
import type { Order } from '@stagedoor/shared/orders';
import type Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, authHeader, createCreator, getOk, type TestAccount } from '../../../test/factories';
import { unbalancedMovements } from '../ledger/ledger';
import { FUNDS_AVAILABLE_AFTER_S, stripeWorld } from '../../../test/stripe-world';
import { runSettlement } from './settlement';

/**
 * Money going back to fans after a payment: refunds that take time or fail, the Dashboard, disputes.
 * Each test has a world of its own: some move the stand-in's clock, and the platform's balance (which a
 * refund draws on) is the test's alone.
 */
let world: Awaited<ReturnType<typeof stripeWorld>>;
beforeEach(async () => {
  world = await stripeWorld();
});
afterEach(() => world.close());

async function cancel(creator: TestAccount, eventId: number): Promise<void> {
  const response = await api(world.app, {
    method: 'POST',
    url: `/api/events/${eventId}/cancel`,
    headers: authHeader(creator.token),
  });
  expect(response.statusCode, response.body).toBe(200);
}

/** Every event Stripe sent since the last call, delivered in order. */
async function deliverSent(): Promise<void> {
  for (const event of world.standIn.takeEvents()) await world.deliverOk(event);
}

/** The order as its buyer sees it on My Tickets. */
const buyersView = (buyer: TestAccount, orderId: number) =>
  getOk<Order>(world.app, `/api/orders/${orderId}`, buyer.token);

/** The creator's balance as Earnings shows it. */
const balanceOf = async (creator: TestAccount) =>
  (await getOk<Earnings>(world.app, '/api/earnings', creator.token)).balance;

/** A paid order of an event that ended and whose earnings were released, and the balance after. */
async function paidAndReleased(price: number) {
  const { app, paidOrder, endEvent } = world;
  const creator = await createCreator(app);
  const { event, order } = await paidOrder(creator, price, 1);
  await endEvent(event.id);
  await runSettlement(app.deps, new Date());
  const released = await balanceOf(creator);
  expect(released.pending).toBe(0);
  return { creator, order, released };
}

const refundCalls = () => world.standIn.callsTo('POST', '/v1/refunds');

describe('refunds through Stripe', () => {
  it('are pending until Stripe sends the money, and only then refunded', async () => {
    const { standIn, app, storedOrder, paidOrder, deliverOk } = world;
    const creator = await createCreator(app);
    const { event, buyer, order } = await paidOrder(creator, 20, 2);
    standIn.takeEvents();

    await cancel(creator, event.id);

    expect(await storedOrder(order.id)).toMatchObject({ status: 'refunded', refundStatus: 'pending' });
    expect(await buyersView(buyer, order.id)).toMatchObject({ status: 'refunded', refundStatus: 'pending' });
    await deliverSent();
    expect(await storedOrder(order.id)).toMatchObject({ refundStatus: 'pending' });

    // The refund waits until the available balance covers it: the order's own funds (less the fee
    // Stripe kept) and another sale's, once available.
    await paidOrder(await createCreator(app), 10, 1);
    standIn.advance(FUNDS_AVAILABLE_AFTER_S);
    for (const event of standIn.settleRefunds()) await deliverOk(event);

    expect(await buyersView(buyer, order.id)).toMatchObject({
      status: 'refunded',
      refundStatus: 'succeeded',
    });
  });

  it('that fail stay failed, shown to the fan as still pending and never sent again', async () => {
    const { standIn, app, storedOrder, paidOrder, deliverOk } = world;
    const creator = await createCreator(app);
    const { event, buyer, order } = await paidOrder(creator, 15, 1);
    await cancel(creator, event.id);
    const { providerRefundId } = await storedOrder(order.id);
    standIn.takeEvents();
    const before = refundCalls().length;

    for (const sent of standIn.failRefund(providerRefundId ?? '')) await deliverOk(sent);
    await runSettlement(app.deps, new Date());

    expect(await storedOrder(order.id)).toMatchObject({
      status: 'refunded',
      refundStatus: 'failed',
      refundFailure: 'expired_or_canceled_card',
    });
    expect(await buyersView(buyer, order.id)).toMatchObject({ refundStatus: 'failed' });
    expect(refundCalls()).toHaveLength(before);
  });

  it("made in Stripe's Dashboard refund the order once, with no second refund from us", async () => {
    const { standIn, app, storedOrder, paidOrder, deliverOk, movementsOf } = world;
    const creator = await createCreator(app);
    const { order } = await paidOrder(creator, 40, 1);
    standIn.takeEvents();
    const before = refundCalls().length;

    await deliverOk(standIn.dashboardRefund(order.paymentId ?? ''));
    await deliverSent();
    await runSettlement(app.deps, new Date());

    expect(await storedOrder(order.id)).toMatchObject({
      status: 'refunded',
      refundReason: 'dashboard',
      providerRefundId: expect.stringMatching(/^re_/),
    });
    expect(await movementsOf(order.id)).toHaveProperty(`refund:order:${order.id}`);
    expect(refundCalls().filter((call) => call.idempotencyKey !== null)).toHaveLength(
      refundCalls()
        .slice(0, before)
        .filter((call) => call.idempotencyKey !== null).length,
    );
  });

  it("made in Stripe's Dashboard after the show's earnings were released take them from the available balance", async () => {
    const { standIn, app, deliverOk } = world;
    const { creator, order, released } = await paidAndReleased(40);

    standIn.takeEvents();
    await deliverOk(standIn.dashboardRefund(order.paymentId ?? ''));
    await deliverSent();

    const net = 4000 - 400 - order.processorFeeCents;
    const after = await balanceOf(creator);
    expect(after.pending).toBe(0);
    expect(Math.round(after.available * 100)).toBe(Math.round(released.available * 100) - net);
    expect(await unbalancedMovements(app.deps.db)).toEqual([]);
  });
});

describe('disputes', () => {
  async function disputed(price: number) {
    const { app, standIn, paidOrder } = world;
    const creator = await createCreator(app);
    const paid = await paidOrder(creator, price, 1);
    standIn.takeEvents();
    const opened = standIn.dispute(paid.order.paymentId ?? '');
    const disputeId = (opened.data.object as Stripe.Dispute).id;
    return { creator, ...paid, opened, disputeId };
  }

  it('lost: the order no longer admits its buyer, the creator pays what they earned and the dispute fee', async () => {
    const { standIn, app, storedOrder, deliverOk, movementsOf } = world;
    const { creator, order, disputeId } = await disputed(50);
    const net = 5000 - 500 - order.processorFeeCents;
    expect(await balanceOf(creator)).toMatchObject({ pending: net / 100, available: 0 });

    await deliverSent();

    expect(await storedOrder(order.id)).toMatchObject({
      status: 'disputed',
      disputeId,
      disputeStatus: 'open',
    });
    expect(await balanceOf(creator)).toMatchObject({ pending: 0, available: -DISPUTE_FEE_CENTS / 100 });
    expect((await movementsOf(order.id))[`dispute:${disputeId}`]).toMatchObject({
      'buyers:gross': 5000,
      'processor:dispute': 1500,
      'creator_pending:net': -net,
      'creator_available:dispute': -DISPUTE_FEE_CENTS,
    });

    await deliverOk(standIn.closeDispute(disputeId, 'lost'));
    expect(await storedOrder(order.id)).toMatchObject({ status: 'disputed', disputeStatus: 'lost' });
    expect(await balanceOf(creator)).toMatchObject({ pending: 0, available: -DISPUTE_FEE_CENTS / 100 });
    expect(await unbalancedMovements(app.deps.db)).toEqual([]);
  });

  it('won: everything goes back, and the order admits its buyer again', async () => {
    const { standIn, storedOrder, deliverOk } = world;
    const { creator, order, disputeId } = await disputed(30);
    const before = await balanceOf(creator);
    await deliverSent();

    await deliverOk(standIn.closeDispute(disputeId, 'won'));
    await deliverSent();

    expect(await storedOrder(order.id)).toMatchObject({ status: 'completed', disputeStatus: 'won' });
    expect(await balanceOf(creator)).toEqual(before);
  });

  it('arriving late, twice and out of order apply once', async () => {
    const { standIn, storedOrder, deliverOk, movementsOf } = world;
    const { creator, order, opened, disputeId } = await disputed(25);
    const sent = standIn.takeEvents();
    const closed = standIn.closeDispute(disputeId, 'lost');

    // The closing first, then every event again, the opening among them.
    await deliverOk(closed);
    for (const event of [...sent, opened, closed]) await deliverOk(event);

    expect(await storedOrder(order.id)).toMatchObject({ status: 'disputed', disputeStatus: 'lost' });
    const movements = await movementsOf(order.id);
    expect(Object.keys(movements).filter((key) => key.startsWith('dispute'))).toEqual([
      `dispute:${disputeId}`,
    ]);
    expect((await balanceOf(creator)).available).toBe(-DISPUTE_FEE_CENTS / 100);
  });

  it('after the earnings were released charge the available balance', async () => {
    const { standIn } = world;
    const { creator, order, released } = await paidAndReleased(40);

    standIn.advance(FUNDS_AVAILABLE_AFTER_S);
    standIn.takeEvents();
    standIn.dispute(order.paymentId ?? '');
    await deliverSent();

    const net = 4000 - 400 - order.processorFeeCents;
    const after = await balanceOf(creator);
    expect(after.pending).toBe(0);
    expect(Math.round((after.available + after.due + after.paidOut) * 100)).toBe(
      Math.round((released.available + released.due + released.paidOut) * 100) - net - DISPUTE_FEE_CENTS,
    );
  });
});
