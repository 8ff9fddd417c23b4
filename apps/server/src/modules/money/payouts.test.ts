import type { Earnings, Payout } from '@stagedoor/shared/money';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { api, authHeader, getOk } from '../../../test/factories';
import { FUNDS_AVAILABLE_AFTER_S, stripeEnvOf, stripeWorld } from '../../../test/stripe-world';
import { createTestApp, sameDeploymentAs } from '../../../test/test-app';
import type { App } from '../../app';
import { accounts, payouts } from '../../db/schema';
import { runSettlement } from './settlement';

/**
 * Payouts against a Stripe that keeps card funds pending for two days and refuses a transfer the
 * available balance cannot cover, replaying that refusal to the same idempotency key for a day. Each
 * test has a world of its own: it moves the stand-in's clock, and the platform's balance is its alone.
 */
let world: Awaited<ReturnType<typeof stripeWorld>>;
beforeEach(async () => {
  world = await stripeWorld();
});
afterEach(() => world.close());

const LEASE_PASSED_MS = 6 * 60_000;

/** The first payout a creator's settled sales made (net of fees, less a new creator's 2 % reserve). */
async function payoutOf(creatorId: number) {
  const rows = await world.app.deps.db.select().from(payouts).where(eq(payouts.creatorId, creatorId));
  expect(rows).toHaveLength(1);
  return rows[0] as (typeof rows)[number];
}

const transferCalls = (accountId: string) =>
  world.standIn.callsTo('POST', '/v1/transfers').filter((call) => call.params.destination === accountId);

describe('payouts through Stripe', () => {
  it('wait for the platform balance to cover them, shown as due and not paid out, then transfer once however many runs', async () => {
    const { standIn, app, onboardedCreator, paidOrder, endEvent } = world;
    const { creator, accountId } = await onboardedCreator();
    const { event } = await paidOrder(creator, 50, 2);
    await endEvent(event.id);

    await runSettlement(app.deps, new Date());
    const waiting = await payoutOf(creator.user.id);
    expect(waiting).toMatchObject({ status: 'due', transferId: null });
    expect(transferCalls(accountId)).toEqual([]);
    const before = await getOk<Earnings>(app, '/api/earnings', creator.token);
    expect(before.balance).toMatchObject({ due: waiting.amountCents / 100, paidOut: 0, available: 0 });

    standIn.advance(FUNDS_AVAILABLE_AFTER_S);
    await Promise.all([runSettlement(app.deps, new Date()), runSettlement(app.deps, new Date())]);
    await runSettlement(app.deps, new Date());

    const sent = await payoutOf(creator.user.id);
    expect(sent).toMatchObject({ status: 'in_transit', transferId: expect.stringMatching(/^tr_/) });
    expect(standIn.get(sent.transferId ?? '')).toMatchObject({
      amount: sent.amountCents,
      destination: accountId,
    });
    expect(transferCalls(accountId)).toHaveLength(1);
    const after = await getOk<Earnings>(app, '/api/earnings', creator.token);
    expect(after.balance).toMatchObject({ due: 0, paidOut: sent.amountCents / 100 });
    expect(await getOk<Payout[]>(app, '/api/payouts', creator.token)).toEqual([
      expect.objectContaining({ status: 'in_transit', amount: sent.amountCents / 100 }),
    ]);
  });

  it('look a refused transfer up by its metadata, then try again under a new key, never the refused one', async () => {
    const { standIn, app, onboardedCreator, paidOrder, endEvent } = world;
    const { creator, accountId } = await onboardedCreator();
    const { event } = await paidOrder(creator, 40, 1);
    await endEvent(event.id);
    standIn.advance(FUNDS_AVAILABLE_AFTER_S);
    // Refused after it started: Stripe keeps that answer for the key and would give it again for a day.
    standIn.failNext('POST /v1/transfers', {
      status: 400,
      type: 'invalid_request_error',
      code: 'balance_insufficient',
      message: 'You have insufficient available funds in your Stripe account.',
    });

    const now = Date.now();
    await runSettlement(app.deps, new Date(now));
    expect(await payoutOf(creator.user.id)).toMatchObject({ status: 'due', attempts: 1 });
    await runSettlement(app.deps, new Date(now + LEASE_PASSED_MS));

    const sent = await payoutOf(creator.user.id);
    expect(sent).toMatchObject({ status: 'in_transit', attempts: 2 });
    const keys = transferCalls(accountId).map((call) => [call.idempotencyKey?.split(':')[1], call.status]);
    expect(keys).toEqual([
      [`payout-${sent.id}-attempt-1`, 400],
      [`payout-${sent.id}-attempt-2`, 200],
    ]);
    const lookups = standIn
      .callsTo('GET', '/v1/transfers')
      .filter((call) => call.params.destination === accountId);
    expect(lookups).toHaveLength(1);
  });

  it('adopt a transfer whose answer was lost, found by its metadata, without sending another', async () => {
    const { standIn, app, payments, onboardedCreator, paidOrder, endEvent } = world;
    const { creator, accountId } = await onboardedCreator();
    const { event } = await paidOrder(creator, 25, 1);
    await endEvent(event.id);
    const now = Date.now();
    await runSettlement(app.deps, new Date(now));
    const due = await payoutOf(creator.user.id);
    expect(due).toMatchObject({ status: 'due', attempts: 0 });
    // The first try reached Stripe and made the transfer; its answer never came back.
    standIn.advance(FUNDS_AVAILABLE_AFTER_S);
    await app.deps.db.update(payouts).set({ attempts: 1 }).where(eq(payouts.id, due.id));
    const made = await payments().transfer(due, accountId, 1);

    await runSettlement(app.deps, new Date(now + LEASE_PASSED_MS));

    expect(await payoutOf(creator.user.id)).toMatchObject({
      status: 'in_transit',
      transferId: made.transferId,
      attempts: 1,
    });
    expect(transferCalls(accountId)).toHaveLength(1);
  });

  it("are paid when the creator's Stripe account pays them out to their bank", async () => {
    const { standIn, app, onboardedCreator, paidOrder, endEvent, deliverOk } = world;
    const { creator, accountId } = await onboardedCreator();
    const { event } = await paidOrder(creator, 30, 1);
    await endEvent(event.id);
    standIn.advance(FUNDS_AVAILABLE_AFTER_S);
    await runSettlement(app.deps, new Date());
    expect(await payoutOf(creator.user.id)).toMatchObject({ status: 'in_transit', paidAt: null });

    await deliverOk(standIn.payOutConnected(accountId));

    expect(await payoutOf(creator.user.id)).toMatchObject({ status: 'paid', paidAt: expect.any(Date) });
  });

  it('fail when Stripe refuses them for good, give the money back, and stop paying the account until Stripe says so', async () => {
    const { standIn, app, onboardedCreator, paidOrder, endEvent } = world;
    const { creator } = await onboardedCreator();
    const { event } = await paidOrder(creator, 30, 1);
    await endEvent(event.id);
    standIn.advance(FUNDS_AVAILABLE_AFTER_S);
    standIn.failNext('POST /v1/transfers', {
      status: 400,
      type: 'invalid_request_error',
      message: 'The destination account cannot receive transfers',
    });

    await runSettlement(app.deps, new Date());
    await runSettlement(app.deps, new Date(Date.now() + LEASE_PASSED_MS));

    const failed = await payoutOf(creator.user.id);
    expect(failed).toMatchObject({ status: 'failed' });
    const [row] = await app.deps.db.select().from(accounts).where(eq(accounts.id, creator.user.id));
    expect(row?.stripePayoutsEnabled).toBe(false);
    // Back in the available balance, for a payout once Stripe says the account takes them again.
    const earnings = await getOk<Earnings>(app, '/api/earnings', creator.token);
    expect(earnings.balance).toMatchObject({ paidOut: 0, due: 0, available: failed.amountCents / 100 });
  });

  it('two instances running the settlement job at once transfer each payout once and send each refund once', async () => {
    const { standIn, app, onboardedCreator, paidOrder, endEvent } = world;
    // On PostgreSQL a second instance of the deployment shares the database; PGlite has one.
    const apps = [app];
    if (inject('databaseDriver') === 'postgres') {
      apps.push(await createTestApp({ ...stripeEnvOf(standIn), ...sameDeploymentAs(app) }));
    }
    try {
      const { creator, accountId } = await onboardedCreator();
      const shown = await paidOrder(creator, 60, 2);
      await endEvent(shown.event.id);
      const cancelled = await paidOrder(creator, 20, 1);
      // Stripe fails the refund when the creator cancels (and keeps that answer for its key a day).
      standIn.failNext('POST /v1/refunds');
      const cancel = await api(app, {
        method: 'POST',
        url: `/api/events/${cancelled.event.id}/cancel`,
        headers: authHeader(creator.token),
      });
      expect(cancel.statusCode).toBe(200);
      const atOnce = (now: Date) =>
        Promise.all(
          Array.from({ length: 4 }, (_, n) => runSettlement((apps[n % apps.length] as App).deps, now)),
        );

      // Within the day Stripe keeps the failure for its key: the job tries again under new keys.
      await atOnce(new Date());
      standIn.advance(FUNDS_AVAILABLE_AFTER_S);
      await atOnce(new Date());
      await runSettlement(app.deps, new Date());

      expect(await payoutOf(creator.user.id)).toMatchObject({ status: 'in_transit' });
      expect(transferCalls(accountId).filter((call) => call.status === 200 && !call.replayed)).toHaveLength(
        1,
      );
      const refunded = standIn
        .callsTo('POST', '/v1/refunds')
        .filter((call) => call.params.payment_intent === cancelled.order.paymentId && call.status === 200);
      expect(refunded.filter((call) => !call.replayed)).toHaveLength(1);
      expect(refunded[0]?.idempotencyKey).not.toBe(
        standIn.callsTo('POST', '/v1/refunds').find((call) => call.status === 500)?.idempotencyKey,
      );
    } finally {
      await Promise.all(apps.slice(1).map((other) => other.close()));
    }
  });
});
