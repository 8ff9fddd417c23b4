import Stripe from 'stripe';
import type { StripeConfig } from '../../config';
import { AppError } from '../../errors';
import {
  PaymentRefusedError,
  type CardPayments,
  type CheckoutOutcome,
  type CheckoutRequest,
  type Payment,
  type PayoutRequest,
  type ProviderRefund,
  type Transfer,
} from './payments';

/**
 * The API version this code reads Stripe's objects in. Pinned, so that upgrading the SDK (whose types
 * only know its own version) fails to compile here until someone has read Stripe's changelog. Webhook
 * endpoints must be created with the same version: Stripe renders their events in it.
 */
const API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

/** Stagedoor's Stripe account is a US one: it settles in US dollars, and pays creators elsewhere cross-border. */
const PLATFORM_COUNTRY = 'US';

/** A fan waits on the checkout call: better a quick 503 than the SDK's default of 80 seconds. */
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * Stripe only accepts a checkout lifetime of 30 minutes to 24 hours, counted from when it receives the
 * call, a moment after the hold began. The checkout therefore stays open a little past the hold (the
 * settlement job closes it on time; a payment in between is answered by the close), and never past
 * Stripe's maximum.
 */
const CHECKOUT_SLACK_S = 60;
const CHECKOUT_MAX_LIFETIME_S = 24 * 60 * 60;

/** The SDK, talking to Stripe, or to the address a test points it at. */
function stripeClient(config: StripeConfig): Stripe {
  const api = config.apiUrl ? new URL(config.apiUrl) : null;
  return new Stripe(config.secretKey, {
    apiVersion: API_VERSION,
    timeout: REQUEST_TIMEOUT_MS,
    appInfo: { name: 'Stagedoor' },
    ...(api && {
      protocol: api.protocol === 'https:' ? 'https' : 'http',
      host: api.hostname,
      port: api.port || (api.protocol === 'https:' ? 443 : 80),
    }),
  });
}

/**
 * How far back a payout's earlier transfer is looked for: the payout row is written before its first
 * try, and Stripe's `created` is its own clock's.
 */
const TRANSFER_LOOKBACK_S = 10 * 60;

/**
 * Stripe behind CardPayments: Checkout for fans, Connect Express accounts and transfers for creators.
 * `namespace` is this deployment's (db/deployment.ts): it prefixes every idempotency key and marks the
 * metadata of every transfer, so deployments sharing a Stripe account never meet.
 */
export function createStripePayments(config: StripeConfig, namespace: string): CardPayments {
  const stripe = stripeClient(config);
  const key = (name: string) => `${namespace}:${name}`;
  const transferOf = (transfer: Stripe.Transfer): Transfer => ({
    transferId: transfer.id,
    destinationPaymentId: idOf(transfer.destination_payment) ?? '',
  });
  return {
    async startCheckout(request) {
      const orderId = String(request.orderId);
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity: request.quantity,
              price_data: {
                currency: 'usd',
                unit_amount: request.unitPriceCents,
                product_data: { name: request.eventName },
              },
            },
          ],
          customer_email: request.customerEmail,
          client_reference_id: orderId,
          metadata: { orderId },
          payment_intent_data: { metadata: { orderId } },
          expires_at: checkoutExpiry(request),
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        { idempotencyKey: key(`checkout-order-${orderId}`) },
      );
      if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a URL`);
      return { sessionId: session.id, url: session.url };
    },

    async closeCheckout(sessionId) {
      try {
        await stripe.checkout.sessions.expire(sessionId);
        return { closed: 'unpaid' };
      } catch (error) {
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        // No such session: no payment can ever arrive for it.
        if (error.statusCode === 404) return { closed: 'unpaid' };
        // Stripe only expires an open session: this one was paid, or closed by Stripe, meanwhile.
        const session = await stripe.checkout.sessions.retrieve(sessionId);
        if (session.status === 'open') throw error;
        return outcomeOf(stripe, session);
      }
    },

    checkoutOutcome: async (sessionId) =>
      outcomeOf(stripe, await stripe.checkout.sessions.retrieve(sessionId)),

    async refund(request) {
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: request.paymentId, amount: request.amountCents, metadata: request.metadata },
          { idempotencyKey: key(`refund-${request.key}`) },
        );
        return refundOf(refund);
      } catch (error) {
        // Refunded already (from Stripe's Dashboard, say): that refund is the answer.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === 'charge_already_refunded'
        ) {
          const { data } = await stripe.refunds.list({ payment_intent: request.paymentId, limit: 1 });
          if (data[0]) return refundOf(data[0]);
        }
        throw refusedOr(error);
      }
    },

    refundById: async (refundId) => refundOf(await stripe.refunds.retrieve(refundId)),

    async refundsOf(paymentId) {
      const { data } = await stripe.refunds.list({ payment_intent: paymentId, limit: 100 });
      return data.map(refundOf);
    },

    async disputeById(disputeId) {
      const dispute = await stripe.disputes.retrieve(disputeId);
      // The withdrawal is a debit of the balance, the reinstatement (a dispute won) a credit.
      const withdrawal = dispute.balance_transactions.find((transaction) => transaction.amount < 0);
      const reinstatement = dispute.balance_transactions.find((transaction) => transaction.amount > 0);
      return {
        id: dispute.id,
        paymentId: idOf(dispute.payment_intent) ?? '',
        fundsWithdrawn: withdrawal !== undefined,
        outcome: dispute.status === 'won' ? 'won' : dispute.status === 'lost' ? 'lost' : 'open',
        withdrawnFeeCents: withdrawal?.fee ?? 0,
        reinstatedFeeCents: -(reinstatement?.fee ?? 0),
      };
    },

    async availableBalance() {
      const balance = await stripe.balance.retrieve();
      return balance.available.find((funds) => funds.currency === 'usd')?.amount ?? 0;
    },

    async transfer(payout, destinationAccountId, attempt) {
      try {
        const transfer = await stripe.transfers.create(
          {
            amount: payout.amountCents,
            currency: 'usd',
            destination: destinationAccountId,
            metadata: transferMetadata(payout, namespace),
          },
          { idempotencyKey: key(`payout-${payout.id}-attempt-${attempt}`) },
        );
        return transferOf(transfer);
      } catch (error) {
        throw refusedOr(error);
      }
    },

    async findTransfer(payout, destinationAccountId) {
      const metadata = transferMetadata(payout, namespace);
      const since = Math.floor(payout.createdAt.getTime() / 1000) - TRANSFER_LOOKBACK_S;
      for await (const transfer of stripe.transfers.list({
        destination: destinationAccountId,
        created: { gte: since },
        limit: 100,
      })) {
        if (
          transfer.metadata.payoutId === metadata.payoutId &&
          transfer.metadata.deployment === metadata.deployment
        ) {
          return transferOf(transfer);
        }
      }
      return null;
    },

    async paidOutPayments(accountId, bankPayoutId) {
      const payments: string[] = [];
      for await (const transaction of stripe.balanceTransactions.list(
        { payout: bankPayoutId, type: 'payment', limit: 100 },
        { stripeAccount: accountId },
      )) {
        const source = idOf(transaction.source);
        if (source) payments.push(source);
      }
      return payments;
    },

    async createAccount(creator, country) {
      const account = await stripe.accounts.create(
        {
          // Express, as Stripe's controller properties say it: Stripe collects what it needs and hosts
          // the creator's dashboard; the platform pays Stripe's fees and bears losses (disputes).
          controller: {
            stripe_dashboard: { type: 'express' },
            fees: { payer: 'application' },
            losses: { payments: 'application' },
            requirement_collection: 'stripe',
          },
          country,
          email: creator.email,
          metadata: { creatorId: String(creator.id) },
          // Fans pay the platform, which transfers each creator's share: transfers is all they need.
          capabilities: { transfers: { requested: true } },
          // Paying a creator outside the platform's country is a cross-border payout: Stripe allows it
          // to accounts under its recipient agreement, which take transfers and nothing else.
          ...(country !== PLATFORM_COUNTRY && { tos_acceptance: { service_agreement: 'recipient' } }),
        },
        { idempotencyKey: key(`account-creator-${creator.id}`) },
      );
      return account.id;
    },

    async onboardingLink(accountId, urls) {
      const link = await stripe.accountLinks.create({
        account: accountId,
        type: 'account_onboarding',
        return_url: urls.returnUrl,
        refresh_url: urls.refreshUrl,
      });
      return link.url;
    },

    async connectedAccount(accountId) {
      const account = await stripe.accounts.retrieve(accountId);
      const due = [...(account.requirements?.past_due ?? []), ...(account.requirements?.currently_due ?? [])];
      return {
        payoutsEnabled: account.payouts_enabled && account.capabilities?.transfers === 'active',
        country: account.country ?? '',
        detailsSubmitted: account.details_submitted,
        requirements: [...new Set(due)],
      };
    },

    async *balanceTransactions(since) {
      for await (const transaction of stripe.balanceTransactions.list({
        created: { gte: Math.floor(since.getTime() / 1000) },
        limit: 100,
      })) {
        yield {
          id: transaction.id,
          type: transaction.type,
          source: idOf(transaction.source),
          amountCents: transaction.amount,
          feeCents: transaction.fee,
          created: new Date(transaction.created * 1000),
        };
      }
    },

    async dashboardLink(accountId) {
      try {
        return (await stripe.accounts.createLoginLink(accountId)).url;
      } catch (error) {
        throw refusedOr(error);
      }
    },
  };
}

/** What the webhook route needs from Stripe. */
export interface StripeWebhooks {
  /** The event Stripe signed; a 400 when the signature does not match the body, a secret and the clock. */
  verify(rawBody: Buffer, signature: unknown): Stripe.Event;
  /** Whether an event belongs to this deployment's mode (Connect sends test events to live endpoints). */
  isOwnMode(event: Stripe.Event): boolean;
  /** The payment of a paid checkout, with the fee Stripe kept. */
  paymentOf(paymentIntentId: string): Promise<Payment>;
}

const INVALID_SIGNATURE_MESSAGE = 'Invalid Stripe signature';

export function createStripeWebhooks(config: StripeConfig): StripeWebhooks {
  const stripe = stripeClient(config);
  // Events of connected accounts (account.updated) come through a Connect endpoint, signed with its own
  // secret: STRIPE_WEBHOOK_SECRET lists both.
  const secrets = config.webhookSecrets;
  const livemode = /^(sk|rk)_live_/.test(config.secretKey);
  return {
    verify(rawBody, signature) {
      if (typeof signature !== 'string' || signature === '') {
        throw new AppError('VALIDATION_FAILED', INVALID_SIGNATURE_MESSAGE, {
          'stripe-signature': 'The Stripe-Signature header is required',
        });
      }
      let refusal = '';
      for (const secret of secrets) {
        try {
          return stripe.webhooks.constructEvent(rawBody, signature, secret);
        } catch (error) {
          if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) throw error;
          // The SDK's first sentence says what did not match; the rest is a link to its docs.
          refusal = error.message.split(/[.?\n]/)[0]?.trim() ?? '';
        }
      }
      throw new AppError('VALIDATION_FAILED', INVALID_SIGNATURE_MESSAGE, { 'stripe-signature': refusal });
    },
    isOwnMode: (event) => event.livemode === livemode,
    paymentOf: (paymentIntentId) => paymentOf(stripe, paymentIntentId),
  };
}

/**
 * A payment and what Stripe kept of it: the fee of its charge's balance transaction, in the platform's
 * currency (USD for a US platform account).
 */
async function paymentOf(stripe: Stripe, paymentIntentId: string): Promise<Payment> {
  const intent = await stripe.paymentIntents.retrieve(paymentIntentId, {
    expand: ['latest_charge.balance_transaction'],
  });
  const charge = intent.latest_charge;
  const transaction = charge && typeof charge !== 'string' ? charge.balance_transaction : null;
  if (!transaction || typeof transaction === 'string') {
    throw new Error(`payment ${paymentIntentId} has no balance transaction yet`);
  }
  return {
    paymentId: intent.id,
    chargeId: typeof charge === 'string' || !charge ? '' : charge.id,
    amountCents: transaction.amount,
    processorFeeCents: transaction.fee,
  };
}

/** The payment (PaymentIntent) a checkout or a charge belongs to: our payments are named by it. */
export function paymentIntentIdOf(
  paid: Pick<Stripe.Checkout.Session | Stripe.Charge, 'payment_intent'>,
): string | null {
  return idOf(paid.payment_intent);
}

/**
 * A refund in our words: Stripe's `canceled` (a refund Stripe gave up on) and `requires_action` (the
 * buyer must act, for some methods) are not done; only `succeeded` is.
 */
function refundOf(refund: Stripe.Refund): ProviderRefund {
  const status =
    refund.status === 'succeeded'
      ? 'succeeded'
      : refund.status === 'failed' || refund.status === 'canceled'
        ? 'failed'
        : 'pending';
  return {
    id: refund.id,
    status,
    failure: status === 'failed' ? (refund.failure_reason ?? refund.status) : null,
  };
}

/**
 * What became of a checkout that is no longer open: paid (its payment), completed with a bank payment
 * still clearing, or closed unpaid.
 */
async function outcomeOf(stripe: Stripe, session: Stripe.Checkout.Session): Promise<CheckoutOutcome> {
  const intentId = paymentIntentIdOf(session);
  if (session.status !== 'complete' || !intentId) return { closed: 'unpaid' };
  if (session.payment_status === 'paid')
    return { closed: 'paid', payment: await paymentOf(stripe, intentId) };
  return { closed: 'processing', paymentId: intentId };
}

/** The id of a field Stripe answers as an id, or as the object when expanded. */
function idOf(field: string | { id: string } | null | undefined): string | null {
  return typeof field === 'string' ? field : (field?.id ?? null);
}

/** What marks a transfer as this deployment's try of this payout, to find it again. */
const transferMetadata = (payout: PayoutRequest, namespace: string) => ({
  payoutId: String(payout.id),
  deployment: namespace,
});

/**
 * The checkout's end, in Unix seconds: see CHECKOUT_SLACK_S. Made from the order's own times alone, so a
 * retried call sends the same parameters and Stripe's idempotency answers it with the first session.
 */
function checkoutExpiry(request: CheckoutRequest): number {
  const afterHold = Math.ceil(request.expiresAt.getTime() / 1000) + CHECKOUT_SLACK_S;
  const latest = Math.floor(request.placedAt.getTime() / 1000) + CHECKOUT_MAX_LIFETIME_S - CHECKOUT_SLACK_S;
  return Math.min(afterHold, latest);
}

/** A refusal for good (PaymentRefusedError) when Stripe rejected the request itself; else the error. */
function refusedOr(error: unknown): unknown {
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    // The platform's balance fills up as charges settle: worth trying again later.
    error.code !== 'balance_insufficient'
  ) {
    return new PaymentRefusedError(error.message, { cause: error });
  }
  return error;
}
