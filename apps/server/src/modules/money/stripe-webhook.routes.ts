import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import { stripeEvents } from './money.tables';
import type { Deps } from '../../deps';
import {
  clockAt,
  disputeClosed,
  disputeOpened,
  expireOrder,
  paymentClearing,
  payOrder,
  refundedByProvider,
} from '../orders/order-lifecycle';
import { ordersOfCheckout } from '../orders/orders.service';
import { payoutAccountChanged } from './payout-account';
import { bankPayoutPaid } from './payouts';
import { refundChanged, refuseStrayPayment, sendRefunds } from './refunds';
import type { CardPayments } from '../payments/payments';
import { createStripeWebhooks, paymentIntentIdOf, type StripeWebhooks } from '../payments/stripe-payments';
import { ID_MAX } from '@stagedoor/shared/limits';

const ZReceived = z.object({ received: z.literal(true) });

/**
 * POST /payments/stripe/webhook: Stripe tells us a checkout was paid or closed, or a creator's account
 * changed. Only with PAYMENT_PROVIDER=stripe; otherwise the route does not exist (404).
 */
export const stripeWebhookRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, payments } = app.deps;
  if (!payments || !config.stripe) return;
  const stripe = createStripeWebhooks(config.stripe);

  // Stripe signs the bytes it sent, so this plugin (and only it) keeps JSON bodies raw.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, body);
  });

  // Stripe does not bound an event's size; a megabyte holds any checkout session it sends. Nothing parses
  // the body before its signature is checked.
  const bodyLimit = 1024 * 1024;
  app.post(
    '/payments/stripe/webhook',
    { bodyLimit, schema: { response: { 200: ZReceived } } },
    async (request) => {
      const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const event = stripe.verify(rawBody, request.headers['stripe-signature']);
      await applyStripeEvent(
        { db: app.deps.db, config: app.deps.config, payments, log: request.log },
        stripe,
        event,
        new Date(),
      );
      return { received: true as const };
    },
  );
};

interface WebhookDeps extends Pick<Deps, 'db' | 'config'> {
  payments: CardPayments;
  log: FastifyBaseLogger;
}

/**
 * Applies a Stripe event once, whenever and however often it arrives. An event recorded in
 * stripe_events is not applied again. It is recorded only after it was applied, so a crash in between
 * makes Stripe deliver it again, and that is harmless: every step is idempotent (an order only moves
 * from the status the step expects, a sale enters the ledger under its order's key, an account takes
 * Stripe's current state). Events may arrive in any order for the same reason.
 */
async function applyStripeEvent(
  deps: WebhookDeps,
  stripe: StripeWebhooks,
  event: Stripe.Event,
  now: Date,
): Promise<void> {
  if (!stripe.isOwnMode(event)) {
    deps.log.info({ eventId: event.id }, 'ignored a Stripe event of the other mode (live or test)');
    return;
  }
  const [applied] = await deps.db
    .select({ id: stripeEvents.id })
    .from(stripeEvents)
    .where(eq(stripeEvents.id, event.id));
  if (applied) return;

  switch (event.type) {
    case 'checkout.session.completed':
      // A bank debit completes the checkout unpaid; async_payment_succeeded follows when it clears.
      if (event.data.object.payment_status === 'paid') {
        await checkoutPaid(deps, stripe, event.data.object, now);
      } else {
        await checkoutClearing(deps, event.data.object);
      }
      break;
    case 'checkout.session.async_payment_succeeded':
      await checkoutPaid(deps, stripe, event.data.object, now);
      break;
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed':
      await checkoutUnpaid(deps, event.data.object, now);
      break;
    case 'account.updated':
      await payoutAccountChanged(deps, event.data.object.id);
      break;
    case 'payout.paid':
      // A connected account's payout to its bank (Connect endpoint); the platform's own carry no account.
      if (event.account) await bankPayoutPaid(deps, event.account, event.data.object.id, now);
      break;
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
    case 'charge.refund.updated':
      await refundChanged(deps, event.data.object.id);
      break;
    case 'charge.refunded':
      await chargeRefunded(deps, event.data.object, now);
      break;
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.funds_reinstated':
    case 'charge.dispute.closed':
      await disputeChanged(deps, event.data.object.id, now);
      break;
  }
  await deps.db.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing();
}

/**
 * A checkout was paid. Only the order's own checkout, for the order's amount in dollars, pays it (and a
 * payment that arrives after the hold ran out takes the tickets again, or is refunded: payOrder). A
 * paid checkout that names one of our orders without being its own, or for another amount, is paid
 * back and logged, never applied: anyone can make a Payment Link carrying an order's number. A checkout
 * naming no order of ours is not ours to take or to refund.
 */
async function checkoutPaid(
  deps: WebhookDeps,
  stripe: StripeWebhooks,
  session: Stripe.Checkout.Session,
  now: Date,
): Promise<void> {
  const paymentId = paymentIntentIdOf(session);
  const namedOrderId = orderIdOf(session);
  const { own, named } = await ordersOfCheckout(deps, { sessionId: session.id, namedOrderId });
  if (!paymentId || (!own && namedOrderId === null)) {
    deps.log.warn({ sessionId: session.id }, 'a paid Stripe checkout names no order of ours; ignored');
    return;
  }
  const payment = await stripe.paymentOf(paymentId);
  const paysOwnOrder = own && session.amount_total === own.totalCents && session.currency === 'usd';
  if (!paysOwnOrder) {
    const reason = own ? 'amount_mismatch' : 'foreign_checkout';
    const orderId = (own ?? named)?.id ?? null;
    await refuseStrayPayment(deps, { checkoutSessionId: session.id, orderId, reason }, payment, now);
    return;
  }
  const order = await payOrder(deps.db, own.id, payment, now);
  if (order?.status !== 'refunded') return;
  deps.log.warn({ orderId: own.id, reason: order.refundReason }, 'a payment that cannot be kept; refunded');
  await sendRefunds(deps);
}

/** A checkout completed with a bank payment still clearing: its order keeps its tickets meanwhile. */
async function checkoutClearing(deps: WebhookDeps, session: Stripe.Checkout.Session): Promise<void> {
  const paymentId = paymentIntentIdOf(session);
  const { own } = await ordersOfCheckout(deps, { sessionId: session.id, namedOrderId: null });
  if (own && paymentId) await paymentClearing(deps.db, own.id, paymentId);
}

/**
 * The checkout closed unpaid, or its bank payment failed: the hold of the order it was opened for ends
 * and the tickets go back on sale. Another checkout naming the order changes nothing.
 */
async function checkoutUnpaid(deps: WebhookDeps, session: Stripe.Checkout.Session, now: Date): Promise<void> {
  const { own } = await ordersOfCheckout(deps, { sessionId: session.id, namedOrderId: null });
  if (own) await expireOrder(deps.db, own.id, clockAt(deps.config, now));
}

/**
 * A charge was refunded, by us or in Stripe's Dashboard. A full refund of a paid order we have not
 * refunded refunds it (reason `dashboard`); a partial one is left to the operator (the money report
 * shows it): the Terms only know full refunds.
 */
async function chargeRefunded(deps: WebhookDeps, charge: Stripe.Charge, now: Date): Promise<void> {
  const paymentId = paymentIntentIdOf(charge);
  if (!paymentId) return;
  if (charge.amount_refunded < charge.amount) {
    deps.log.warn({ paymentId }, 'a charge was partly refunded at Stripe: see npm run admin -- money-report');
    return;
  }
  const [refund] = await deps.payments.refundsOf(paymentId);
  if (refund) await refundedByProvider(deps.db, paymentId, refund, clockAt(deps.config, now));
}

/**
 * A dispute moved: read as it stands now (its events may come in any order), its withdrawal and its
 * outcome are applied, each once.
 */
async function disputeChanged(deps: WebhookDeps, disputeId: string, now: Date): Promise<void> {
  const dispute = await deps.payments.disputeById(disputeId);
  if (dispute.fundsWithdrawn) await disputeOpened(deps.db, dispute, now);
  if (dispute.outcome !== 'open') await disputeClosed(deps.db, dispute, now);
}

/** Our order's id, as startCheckout put it on the session; null on a checkout we did not open. */
function orderIdOf(session: Stripe.Checkout.Session): number | null {
  const text = session.metadata?.orderId ?? session.client_reference_id ?? '';
  const id = /^\d{1,10}$/.test(text) ? Number(text) : 0;
  return id >= 1 && id <= ID_MAX ? id : null;
}
