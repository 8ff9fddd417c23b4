import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { api, authHeader, createCreator } from '../../../test/factories';
import { FUNDS_AVAILABLE_AFTER_S, stripeWorld } from '../../../test/stripe-world';
import { MoneyReportFindings, runAdminCommand } from '../../admin-commands';
import { orders } from '../../db/schema';
import { runSettlement } from './settlement';

/**
 * `npm run admin -- money-report`: the ledger against the Stripe stand-in's balance transactions. Each
 * test has a world of its own (Stripe's balance and clock).
 */
const METRICS_TOKEN = 'metrics-token-for-the-money-report';
let world: Awaited<ReturnType<typeof stripeWorld>>;
beforeEach(async () => {
  world = await stripeWorld({ METRICS_TOKEN });
});
afterEach(() => world.close());

const report = () => runAdminCommand(world.app, ['money-report']);

/** The report's text when it found something (the command exits 1), else null. */
async function findings(): Promise<string | null> {
  try {
    await report();
    return null;
  } catch (error) {
    if (error instanceof MoneyReportFindings) return error.message;
    throw error;
  }
}

/** A month of business: sales, a cancellation refunded, a payout transferred, a dispute lost. */
async function aMonth() {
  const { app, standIn, paidOrder, onboardedCreator, endEvent, deliverOk } = world;
  const { creator } = await onboardedCreator();
  const shown = await paidOrder(creator, 40, 2);
  await paidOrder(creator, 25, 1);
  const disputed = await paidOrder(creator, 30, 1);
  const cancelled = await paidOrder(creator, 20, 1);
  const cancel = await api(app, {
    method: 'POST',
    url: `/api/events/${cancelled.event.id}/cancel`,
    headers: authHeader(creator.token),
  });
  expect(cancel.statusCode).toBe(200);
  await endEvent(shown.event.id);
  standIn.advance(FUNDS_AVAILABLE_AFTER_S);
  for (const event of standIn.settleRefunds()) await deliverOk(event);
  await runSettlement(app.deps, new Date());
  standIn.dispute(disputed.order.paymentId ?? '');
  for (const event of standIn.takeEvents()) await deliverOk(event);
  return { creator, shown, disputed, cancelled };
}

describe('npm run admin -- money-report', () => {
  it('finds nothing after a month of sales, refunds, payouts and a dispute', async () => {
    await aMonth();
    const text = await report();
    expect(text).toContain('Differences between the ledger and Stripe: none');
    expect(text).toContain('Refunds failed or stuck: none');
    expect(text).toContain('Payouts stuck: none');
  });

  it('names a payment the ledger books that Stripe never took, and one booked at another amount', async () => {
    const { shown, disputed } = await aMonth();
    await world.app.deps.db
      .update(orders)
      .set({ chargeId: 'ch_never_made' })
      .where(eq(orders.id, shown.order.id));
    await world.app.deps.db.update(orders).set({ totalCents: 3100 }).where(eq(orders.id, disputed.order.id));

    const text = await findings();

    expect(text).toContain(
      `Order ${shown.order.id}: $80.00 in the ledger, no charge ch_never_made at Stripe`,
    );
    expect(text).toContain(`Order ${disputed.order.id}: $31.00 in the ledger, $30.00 at Stripe`);
    // The real charge is now unknown to the ledger, and said so.
    expect(text).toMatch(
      new RegExp(`Stripe charge ${shown.order.chargeId} of \\$80\\.00 .* is not in the ledger`),
    );
  });

  it("names a refund made in Stripe's Dashboard that the ledger has not booked (a partial one)", async () => {
    const { shown } = await aMonth();
    world.standIn.dashboardRefund(shown.order.paymentId ?? '', 1000);
    for (const event of world.standIn.takeEvents()) await world.deliverOk(event);
    for (const event of world.standIn.settleRefunds()) await world.deliverOk(event);

    expect(await findings()).toMatch(/Stripe refund re_\w+ of -\$10\.00 .* is not in the ledger/);
  });

  it('lists a refund Stripe failed, and counts it on /metrics with the differences', async () => {
    const { app, standIn, paidOrder, deliverOk } = world;
    const creator = await createCreator(app);
    const { event, order } = await paidOrder(creator, 15, 1);
    const cancel = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}/cancel`,
      headers: authHeader(creator.token),
    });
    expect(cancel.statusCode).toBe(200);
    const [stored] = await app.deps.db.select().from(orders).where(eq(orders.id, order.id));
    for (const sent of standIn.failRefund(stored?.providerRefundId ?? '')) await deliverOk(sent);

    expect(await findings()).toContain(
      `Refund of order ${order.id} ($15.00) failed: expired_or_canceled_card; the fan must be paid another way`,
    );
    const metrics = await api(app, {
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.body).toMatch(/^stagedoor_refunds_stuck 1$/m);
    expect(metrics.body).toMatch(/^stagedoor_money_differences 0$/m);
    expect(metrics.body).toMatch(/^stagedoor_payouts_stuck 0$/m);
  });
});
