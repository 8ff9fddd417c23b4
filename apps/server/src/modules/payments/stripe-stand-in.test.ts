import Stripe from 'stripe';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startStripeStandIn, stripeFee } from '../../../test/stripe-stand-in';

/**
 * The tests' Stripe stand-in behaves as Stripe documents it, refusals included, seen through the real
 * SDK configured as the app configures it. Each test has a stand-in of its own: balances start at zero.
 */

const DAY_S = 24 * 60 * 60;

/** Express, as Stripe's controller properties describe it: the platform pays the fees and bears the losses. */
const EXPRESS = {
  stripe_dashboard: { type: 'express' },
  fees: { payer: 'application' },
  losses: { payments: 'application' },
  requirement_collection: 'stripe',
} satisfies Stripe.AccountCreateParams.Controller;

let standIn: Awaited<ReturnType<typeof startStripeStandIn>>;
let stripe: Stripe;

beforeEach(async () => {
  standIn = await startStripeStandIn();
  const api = new URL(standIn.url);
  stripe = new Stripe(standIn.secretKey, {
    apiVersion: '2026-10-28.endive',
    timeout: 20_000,
    appInfo: { name: 'Stagedoor' },
    protocol: 'http',
    host: api.hostname,
    port: api.port,
  });
});
afterEach(() => standIn.close());

/** A one-line Checkout Session, as the app opens them. */
function openCheckout(
  amount: number,
  options: Stripe.RequestOptions = {},
  extra: Partial<Stripe.Checkout.SessionCreateParams> = {},
) {
  return stripe.checkout.sessions.create(
    {
      mode: 'payment',
      line_items: [
        {
          quantity: 1,
          price_data: { currency: 'usd', unit_amount: amount, product_data: { name: 'Ticket' } },
        },
      ],
      success_url: 'https://stagedoor.test/orders?session={CHECKOUT_SESSION_ID}',
      ...extra,
    },
    options,
  );
}

/** A fan's card payment: its PaymentIntent and charge. */
async function cardPayment(amount: number) {
  const session = await openCheckout(amount);
  standIn.pay(session.id);
  const intent = await stripe.paymentIntents.retrieve(String(standIn.get(session.id).payment_intent));
  return { intentId: intent.id, chargeId: String(intent.latest_charge) };
}

/** The platform's balance in USD cents, or a connected account's. */
async function balance(stripeAccount?: string) {
  const { available, pending } = await stripe.balance.retrieve({}, stripeAccount ? { stripeAccount } : {});
  return { available: available[0]?.amount, pending: pending[0]?.amount };
}

/** A creator's Express account that finished onboarding. */
async function onboardedAccount(): Promise<string> {
  const account = await stripe.accounts.create({
    controller: EXPRESS,
    country: 'US',
    email: 'creator@stagedoor.test',
    capabilities: { transfers: { requested: true } },
  });
  standIn.completeOnboarding(account.id);
  return account.id;
}

/** The error Stripe answered a call with. */
async function refusal(call: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  const error = await call.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(Stripe.errors.StripeError);
  return error as Stripe.errors.StripeError;
}

const netOf = (amount: number) => amount - stripeFee(amount);

describe('Checkout Sessions on the stand-in', () => {
  it('refuses a total under $0.50 without keeping the refusal for its idempotency key', async () => {
    const tooSmall = await refusal(openCheckout(49, { idempotencyKey: 'checkout-order-1' }));
    expect(tooSmall).toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      code: 'amount_too_small',
      message: "The Checkout Session's total amount due must add up to at least $0.50 usd",
    });

    // A request refused by validation never started: the corrected one runs under the same key.
    const session = await openCheckout(50, { idempotencyKey: 'checkout-order-1' });

    expect(session).toMatchObject({ amount_total: 50, status: 'open' });
    expect(
      standIn.callsTo('POST', '/v1/checkout/sessions').map((call) => [call.status, call.replayed]),
    ).toEqual([
      [400, false],
      [200, false],
    ]);
  });

  it('opens a session for another integration, and sends its payer to the success URL with its id', async () => {
    const foreign = standIn.openSession({ amountCents: 2_000, clientReferenceId: 'payment-link-7' });

    expect(standIn.pay(foreign)).toMatchObject({
      type: 'checkout.session.completed',
      data: {
        object: { id: foreign, client_reference_id: 'payment-link-7', metadata: {}, payment_status: 'paid' },
      },
    });
    const session = await openCheckout(1_000);
    expect(standIn.successUrlOf(session.id)).toBe(`https://stagedoor.test/orders?session=${session.id}`);
  });

  it('expires an unpaid session when the clock passes its expires_at', async () => {
    const session = await openCheckout(1_000, {}, { expires_at: standIn.now() + 60 * 60 });

    standIn.advance(60 * 60);

    expect(standIn.takeEvents('checkout.session.expired')).toMatchObject([
      { data: { object: { id: session.id, status: 'expired', url: null } } },
    ]);
    expect(() => standIn.pay(session.id)).toThrow(/is expired/);
  });
});

describe('the balance on the stand-in', () => {
  it("keeps a card payment's funds pending for two days, then makes them available", async () => {
    const { chargeId } = await cardPayment(10_000);
    const charge = await stripe.charges.retrieve(chargeId, { expand: ['balance_transaction'] });
    const transaction = charge.balance_transaction as Stripe.BalanceTransaction;

    expect(transaction).toMatchObject({
      type: 'charge',
      reporting_category: 'charge',
      amount: 10_000,
      fee: stripeFee(10_000),
      net: netOf(10_000),
      source: chargeId,
      status: 'pending',
      available_on: transaction.created + 2 * DAY_S,
    });
    expect(await balance()).toEqual({ available: 0, pending: netOf(10_000) });

    standIn.advance(2 * DAY_S - 60);
    expect(await balance()).toEqual({ available: 0, pending: netOf(10_000) });
    standIn.advance(60);
    expect(await balance()).toEqual({ available: netOf(10_000), pending: 0 });
    expect(await stripe.balanceTransactions.retrieve(transaction.id)).toMatchObject({ status: 'available' });
  });

  it('lists balance transactions newest first, a page at a time, and within a created range', async () => {
    for (let index = 0; index < 13; index += 1)
      standIn.pay(standIn.openSession({ amountCents: 100 + index }));
    standIn.advance(60 * 60);
    const since = standIn.now();
    for (let index = 13; index < 25; index += 1)
      standIn.pay(standIn.openSession({ amountCents: 100 + index }));
    const newestFirst = Array.from({ length: 25 }, (_, index) => 124 - index);

    const first = await stripe.balanceTransactions.list({ limit: 10 });
    expect(first).toMatchObject({ object: 'list', has_more: true });
    expect(first.data.map((transaction) => transaction.amount)).toEqual(newestFirst.slice(0, 10));
    const second = await stripe.balanceTransactions.list({
      limit: 10,
      starting_after: first.data.at(-1)?.id,
    });
    expect(second.data.map((transaction) => transaction.amount)).toEqual(newestFirst.slice(10, 20));
    const newer = await stripe.balanceTransactions.list({ limit: 3, ending_before: second.data[0]?.id });
    expect(newer).toMatchObject({ has_more: true });
    expect(newer.data.map((transaction) => transaction.amount)).toEqual([117, 116, 115]);

    const walked: number[] = [];
    for await (const transaction of stripe.balanceTransactions.list({ limit: 10 }))
      walked.push(transaction.amount);
    expect(walked).toEqual(newestFirst);
    const recent = await stripe.balanceTransactions.list({ limit: 100, created: { gte: since } });
    expect(recent.data.map((transaction) => transaction.amount)).toEqual(newestFirst.slice(0, 12));
    expect(await refusal(stripe.balanceTransactions.list({ limit: 101 }))).toMatchObject({ param: 'limit' });
  });
});

describe('transfers on the stand-in', () => {
  it('refuses a transfer the available balance cannot cover, replays that refusal for its key, and takes a new key once funds are available', async () => {
    const accountId = await onboardedAccount();
    await cardPayment(10_000);
    const transfer = (key: string) =>
      stripe.transfers.create(
        { amount: 5_000, currency: 'usd', destination: accountId },
        { idempotencyKey: key },
      );

    standIn.advance(2 * DAY_S - 60 * 60);
    const refused = await refusal(transfer('payout-1'));
    expect(refused).toMatchObject({
      statusCode: 400,
      code: 'balance_insufficient',
      message: expect.stringMatching(/^You have insufficient available funds in your Stripe account\. /),
    });
    standIn.advance(60 * 60);
    expect(await balance()).toEqual({ available: netOf(10_000), pending: 0 });
    // The refusal stays Stripe's answer to that key for a day, though the funds are there now.
    expect(await refusal(transfer('payout-1'))).toMatchObject({ code: 'balance_insufficient' });
    const made = await transfer('payout-2');

    expect(made).toMatchObject({
      amount: 5_000,
      destination: accountId,
      destination_payment: expect.stringMatching(/^py_/),
      reversed: false,
      amount_reversed: 0,
    });
    expect(
      standIn
        .callsTo('POST', '/v1/transfers')
        .map((call) => [call.idempotencyKey, call.status, call.replayed]),
    ).toEqual([
      ['payout-1', 400, false],
      ['payout-1', 400, true],
      ['payout-2', 200, false],
    ]);
    expect(await balance()).toEqual({ available: netOf(10_000) - 5_000, pending: 0 });
    expect(await balance(accountId)).toEqual({ available: 5_000, pending: 0 });
    const { data } = await stripe.transfers.list({ destination: accountId });
    expect(data.map((listed) => listed.id)).toEqual([made.id]);
  });

  it('lets a transfer draw on a pending charge with source_transaction, never beyond what is left of it', async () => {
    const accountId = await onboardedAccount();
    const { intentId, chargeId } = await cardPayment(10_000);
    await stripe.refunds.create({ payment_intent: intentId, amount: 1_000 });
    const fromCharge = (amount: number) =>
      stripe.transfers.create({
        amount,
        currency: 'usd',
        destination: accountId,
        source_transaction: chargeId,
      });

    expect(await fromCharge(6_000)).toMatchObject({ source_transaction: chargeId });
    // 10,000 less 1,000 refunded less 6,000 transferred: 3,000 are left.
    expect(await refusal(fromCharge(3_001))).toMatchObject({ statusCode: 400, param: 'amount' });
    await fromCharge(3_000);

    // Both sides wait for the charge's funds.
    expect(await balance()).toEqual({ available: 0, pending: netOf(10_000) - 9_000 });
    expect(await balance(accountId)).toEqual({ available: 0, pending: 9_000 });
    standIn.advance(2 * DAY_S);
    expect(await balance(accountId)).toEqual({ available: 9_000, pending: 0 });
  });

  it('forgets an idempotency key 24 hours after its first use', async () => {
    const first = await openCheckout(1_000, { idempotencyKey: 'checkout-order-2' });
    standIn.advance(24 * 60 * 60 - 60);
    const replayed = await openCheckout(1_000, { idempotencyKey: 'checkout-order-2' });
    standIn.advance(60);
    const anew = await openCheckout(1_000, { idempotencyKey: 'checkout-order-2' });

    expect(replayed.id).toBe(first.id);
    expect(anew.id).not.toBe(first.id);
    expect(standIn.callsTo('POST', '/v1/checkout/sessions').map((call) => call.replayed)).toEqual([
      false,
      true,
      false,
    ]);
  });
});

describe('refunds on the stand-in', () => {
  it('answers a refund pending, raises amount_refunded at once, and takes the money when it succeeds', async () => {
    const { intentId, chargeId } = await cardPayment(10_000);
    const early = await stripe.refunds.create({ payment_intent: intentId, amount: 1_000 });
    expect(early).toMatchObject({ status: 'pending', pending_reason: 'insufficient_funds' });
    standIn.advance(2 * DAY_S);

    const refund = await stripe.refunds.create({
      payment_intent: intentId,
      amount: 4_000,
      metadata: { orderId: '7' },
    });

    expect(refund).toMatchObject({
      status: 'pending',
      pending_reason: 'processing',
      amount: 4_000,
      charge: chargeId,
      metadata: { orderId: '7' },
    });
    expect(await stripe.charges.retrieve(chargeId)).toMatchObject({
      amount_refunded: 5_000,
      refunded: false,
    });
    expect(await balance()).toEqual({ available: netOf(10_000), pending: 0 });

    const updates = standIn.settleRefunds();

    expect(updates.map((update) => [update.type, (update.data.object as Stripe.Refund).id])).toEqual([
      ['refund.updated', early.id],
      ['charge.refund.updated', early.id],
      ['refund.updated', refund.id],
      ['charge.refund.updated', refund.id],
    ]);
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({
      status: 'succeeded',
      pending_reason: null,
      balance_transaction: expect.stringMatching(/^txn_/),
    });
    expect(await balance()).toEqual({ available: netOf(10_000) - 5_000, pending: 0 });
    const { data } = await stripe.refunds.list({ payment_intent: intentId });
    expect(data.map((listed) => listed.id)).toEqual([refund.id, early.id]);
  });

  it('gives the money of a failed refund back and lowers amount_refunded', async () => {
    const { intentId, chargeId } = await cardPayment(10_000);
    standIn.advance(2 * DAY_S);
    const refund = await stripe.refunds.create({ payment_intent: intentId, amount: 3_000 });
    standIn.settleRefunds();
    expect(await balance()).toEqual({ available: netOf(10_000) - 3_000, pending: 0 });

    const events = standIn.failRefund(refund.id);

    expect(events.map((failed) => failed.type)).toEqual([
      'refund.failed',
      'refund.updated',
      'charge.refund.updated',
    ]);
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({
      status: 'failed',
      failure_reason: 'expired_or_canceled_card',
      failure_balance_transaction: expect.stringMatching(/^txn_/),
    });
    expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ amount_refunded: 0, refunded: false });
    expect(await balance()).toEqual({ available: netOf(10_000), pending: 0 });
    const { data } = await stripe.balanceTransactions.list({ limit: 2 });
    expect(data.map((transaction) => [transaction.type, transaction.amount, transaction.source])).toEqual([
      ['refund_failure', 3_000, refund.id],
      ['refund', -3_000, refund.id],
    ]);
  });

  it("reports a refund made in Stripe's Dashboard as charge.refunded, and refunds no more than is left", async () => {
    const { intentId, chargeId } = await cardPayment(4_000);

    const refunded = standIn.dashboardRefund(intentId, 1_500);

    expect(refunded).toMatchObject({
      type: 'charge.refunded',
      request: { id: expect.stringMatching(/^req_/), idempotency_key: null },
      data: { object: { id: chargeId, amount_refunded: 1_500, refunded: false } },
    });
    const { data } = await stripe.refunds.list({ payment_intent: intentId });
    expect(data).toMatchObject([{ amount: 1_500, metadata: {}, status: 'pending' }]);
    expect(await refusal(stripe.refunds.create({ payment_intent: intentId, amount: 3_000 }))).toMatchObject({
      param: 'amount',
      message: 'Refund amount ($30.00) is greater than unrefunded amount on charge ($25.00)',
    });
    expect(await stripe.refunds.create({ payment_intent: intentId })).toMatchObject({ amount: 2_500 });
    expect(await refusal(stripe.refunds.create({ payment_intent: intentId }))).toMatchObject({
      code: 'charge_already_refunded',
      message: `Charge ${chargeId} has already been refunded.`,
    });
  });
});

describe('disputes on the stand-in', () => {
  it('takes a disputed amount and the $15.00 fee, keeps them when the dispute is lost, and refuses a refund', async () => {
    const { intentId, chargeId } = await cardPayment(10_000);
    standIn.advance(2 * DAY_S);

    const created = standIn.dispute(intentId);

    const dispute = created.data.object as Stripe.Dispute;
    expect(dispute).toMatchObject({
      amount: 10_000,
      charge: chargeId,
      payment_intent: intentId,
      reason: 'fraudulent',
      status: 'needs_response',
    });
    expect(dispute.balance_transactions).toMatchObject([
      { type: 'adjustment', reporting_category: 'dispute', amount: -10_000, fee: 1_500, net: -11_500 },
    ]);
    expect(standIn.takeEvents('charge.dispute.funds_withdrawn')).toHaveLength(1);
    expect(await balance()).toEqual({ available: netOf(10_000) - 11_500, pending: 0 });
    expect(await stripe.charges.retrieve(chargeId)).toMatchObject({ disputed: true });
    expect(await refusal(stripe.refunds.create({ payment_intent: intentId }))).toMatchObject({
      code: 'charge_disputed',
      message: `Charge ${chargeId} has been charged back; cannot issue a refund.`,
    });

    expect(standIn.closeDispute(dispute.id, 'lost')).toMatchObject({
      type: 'charge.dispute.closed',
      data: { object: { status: 'lost' } },
    });
    expect(await balance()).toEqual({ available: netOf(10_000) - 11_500, pending: 0 });
    expect(await stripe.disputes.retrieve(dispute.id)).toMatchObject({ status: 'lost' });
  });

  it('gives the amount and the fee back when the dispute is won', async () => {
    const { intentId } = await cardPayment(10_000);
    standIn.advance(2 * DAY_S);
    const dispute = standIn.dispute(intentId).data.object as Stripe.Dispute;

    standIn.closeDispute(dispute.id, 'won');

    expect(standIn.takeEvents('charge.dispute.funds_reinstated')).toHaveLength(1);
    expect(await balance()).toEqual({ available: netOf(10_000), pending: 0 });
    expect((await stripe.disputes.retrieve(dispute.id)).balance_transactions).toMatchObject([
      { reporting_category: 'dispute', net: -11_500 },
      { reporting_category: 'dispute_reversal', amount: 10_000, fee: -1_500, net: 11_500 },
    ]);
  });
});

describe('connected accounts on the stand-in', () => {
  it('creates an Express account from controller properties, with what onboarding must collect', async () => {
    const account = await stripe.accounts.create({
      controller: EXPRESS,
      country: 'US',
      email: 'creator@stagedoor.test',
      capabilities: { transfers: { requested: true } },
    });

    expect(account).toMatchObject({
      type: 'express',
      country: 'US',
      controller: EXPRESS,
      capabilities: { transfers: 'inactive' },
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      tos_acceptance: { service_agreement: 'full' },
      requirements: { disabled_reason: 'requirements.past_due' },
    });
    expect(account.requirements?.currently_due).toEqual(
      expect.arrayContaining([
        'business_type',
        'external_account',
        'individual.dob.day',
        'tos_acceptance.date',
      ]),
    );
    standIn.completeOnboarding(account.id);
    expect(await stripe.accounts.retrieve(account.id)).toMatchObject({
      details_submitted: true,
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
      requirements: { currently_due: [], past_due: [], disabled_reason: null },
    });
  });

  it('refuses a legacy type with controller properties, and a transfers-only account abroad without the recipient agreement', async () => {
    expect(await refusal(stripe.accounts.create({ type: 'express', controller: EXPRESS }))).toMatchObject({
      statusCode: 400,
      message: 'You may only specify one of these parameters: controller, type.',
    });
    const abroad = { controller: EXPRESS, country: 'FR', capabilities: { transfers: { requested: true } } };
    expect(await refusal(stripe.accounts.create(abroad))).toMatchObject({
      statusCode: 400,
      message:
        'You cannot request the `transfers` capability without the `card_payments` capability for accounts in FR.',
    });

    const recipient = await stripe.accounts.create({
      ...abroad,
      tos_acceptance: { service_agreement: 'recipient' },
    });

    expect(recipient).toMatchObject({ country: 'FR', tos_acceptance: { service_agreement: 'recipient' } });
  });

  it('stops transfers when Stripe needs more information, until the creator gives it', async () => {
    const accountId = await onboardedAccount();
    await cardPayment(10_000);
    standIn.advance(2 * DAY_S);

    const updated = standIn.requireMore(accountId, ['individual.verification.document']);

    expect(updated).toMatchObject({
      type: 'account.updated',
      account: accountId,
      data: {
        object: {
          payouts_enabled: false,
          capabilities: { transfers: 'inactive' },
          requirements: {
            currently_due: ['individual.verification.document'],
            past_due: ['individual.verification.document'],
          },
        },
      },
    });
    const transfer = () =>
      stripe.transfers.create({ amount: 1_000, currency: 'usd', destination: accountId });
    expect(await refusal(transfer())).toMatchObject({ code: 'insufficient_capabilities_for_transfer' });
    standIn.completeOnboarding(accountId);
    expect(await transfer()).toMatchObject({ amount: 1_000 });
  });

  it('gives an Express login link only once onboarding is complete, and never for another kind of account', async () => {
    const account = await stripe.accounts.create({
      controller: EXPRESS,
      capabilities: { transfers: { requested: true } },
    });
    expect(await refusal(stripe.accounts.createLoginLink(account.id))).toMatchObject({
      statusCode: 400,
      message: 'Cannot create a login link for an account that has not completed onboarding.',
    });

    standIn.completeOnboarding(account.id);

    expect(await stripe.accounts.createLoginLink(account.id)).toMatchObject({
      object: 'login_link',
      url: expect.stringMatching(/^https:\/\/connect\.stripe\.com\/express\//),
    });
    const standard = await stripe.accounts.create({ type: 'standard' });
    expect(await refusal(stripe.accounts.createLoginLink(standard.id))).toMatchObject({
      message: `Cannot create an edit link for the account ${standard.id}, which is not an Express account.`,
    });
  });

  it("pays out a connected account's available balance, listing the transfer's payment in the payout", async () => {
    const accountId = await onboardedAccount();
    await cardPayment(10_000);
    standIn.advance(2 * DAY_S);
    const transfer = await stripe.transfers.create({
      amount: 4_000,
      currency: 'usd',
      destination: accountId,
    });

    const paid = standIn.payOutConnected(accountId);

    expect(paid).toMatchObject({
      type: 'payout.paid',
      account: accountId,
      data: { object: { amount: 4_000, status: 'paid' } },
    });
    const payoutId = (paid.data.object as Stripe.Payout).id;
    const { data } = await stripe.balanceTransactions.list(
      { payout: payoutId },
      { stripeAccount: accountId },
    );
    expect(data.map((transaction) => [transaction.type, transaction.amount, transaction.source])).toEqual([
      ['payout', -4_000, payoutId],
      ['payment', 4_000, transfer.destination_payment],
    ]);
    expect(await stripe.payouts.retrieve(payoutId, {}, { stripeAccount: accountId })).toMatchObject({
      status: 'paid',
    });
    // The platform sees its own objects only.
    expect(await refusal(stripe.payouts.retrieve(payoutId))).toMatchObject({ statusCode: 404 });
    expect(await balance(accountId)).toEqual({ available: 0, pending: 0 });
  });

  it("gives a failed payout's money back to the connected account", async () => {
    const accountId = await onboardedAccount();
    await cardPayment(10_000);
    standIn.advance(2 * DAY_S);
    await stripe.transfers.create({ amount: 4_000, currency: 'usd', destination: accountId });

    const failed = standIn.payOutConnected(accountId, { fail: true });

    expect(failed).toMatchObject({
      type: 'payout.failed',
      account: accountId,
      data: { object: { status: 'failed', failure_code: 'account_closed' } },
    });
    expect(await balance(accountId)).toEqual({ available: 4_000, pending: 0 });
  });
});

describe('events of the stand-in', () => {
  it('queues the events Stripe sends, in order, each naming the request behind it', async () => {
    const { intentId } = await cardPayment(2_000);
    await stripe.refunds.create({ payment_intent: intentId }, { idempotencyKey: 'refund-order-1' });

    expect(standIn.sent.map((sent) => sent.type)).toEqual([
      'charge.succeeded',
      'payment_intent.succeeded',
      'checkout.session.completed',
      'charge.refunded',
      'refund.created',
    ]);
    expect(standIn.takeEvents('refund.created')).toMatchObject([
      { request: { id: expect.stringMatching(/^req_/), idempotency_key: 'refund-order-1' } },
    ]);
    expect(standIn.takeEvents().map((taken) => [taken.type, taken.request?.idempotency_key ?? null])).toEqual(
      [
        ['charge.succeeded', null],
        ['payment_intent.succeeded', null],
        ['checkout.session.completed', null],
        ['charge.refunded', 'refund-order-1'],
      ],
    );
    expect(standIn.sent).toEqual([]);
  });
});
