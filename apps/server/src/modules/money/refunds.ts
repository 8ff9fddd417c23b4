import { and, asc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { ordersView as orders } from '../orders/orders.views';
import { strayPayments, type StrayPaymentRow } from './money.tables';
import type { Deps } from '../../deps';
import { post, strayPaymentOf, strayRefundOf } from '../ledger/ledger';
import { claimRefund, refundProgress, refundSent } from '../orders/order-lifecycle';
import type { Payment, ProviderRefund } from '../payments/payments';

type RefundDeps = Pick<Deps, 'db' | 'payments' | 'log'>;

/** How much one run takes on; the rest waits for the next run. */
const BATCH = 100;

/** A refund decided in the ledger, to be asked of the provider. */
interface DueRefund {
  /** Names it in the idempotency key, with the try's number. */
  key: string;
  paymentId: string;
  amountCents: number;
  metadata: Record<string, string>;
  /** Counts one more try of it; the try's number, or null when it was sent meanwhile. */
  claim(): Promise<number | null>;
  record(refund: ProviderRefund): Promise<void>;
}

/**
 * Refunds decided in the ledger whose money the provider has not yet been asked to send back: paid
 * orders refunded (a cancellation, an outage, a late payment) and stray payments. An error leaves one
 * for the next run (logged).
 */
export async function sendRefunds(deps: RefundDeps): Promise<void> {
  if (!deps.payments) return;
  const refundedOrders = await deps.db
    .select({ id: orders.id, paymentId: orders.paymentId, totalCents: orders.totalCents })
    .from(orders)
    .where(and(eq(orders.status, 'refunded'), isNotNull(orders.paymentId), isNull(orders.providerRefundId)))
    .orderBy(asc(orders.id))
    .limit(BATCH);
  for (const order of refundedOrders) {
    if (!order.paymentId) continue;
    await sendRefund(deps, {
      key: `order-${order.id}`,
      paymentId: order.paymentId,
      amountCents: order.totalCents,
      metadata: { orderId: String(order.id) },
      claim: () => claimRefund(deps.db, order.id),
      record: (refund) => refundSent(deps.db, order.id, refund),
    });
  }
  const strays = await deps.db
    .select()
    .from(strayPayments)
    .where(isNull(strayPayments.providerRefundId))
    .orderBy(asc(strayPayments.createdAt))
    .limit(BATCH);
  for (const stray of strays) {
    const unsent = and(eq(strayPayments.paymentId, stray.paymentId), isNull(strayPayments.providerRefundId));
    await sendRefund(deps, {
      key: `payment-${stray.paymentId}`,
      paymentId: stray.paymentId,
      amountCents: stray.amountCents,
      metadata: { strayPayment: stray.reason },
      claim: async () => {
        const [claimed] = await deps.db
          .update(strayPayments)
          .set({ refundAttempts: sql`${strayPayments.refundAttempts} + 1` })
          .where(unsent)
          .returning({ attempts: strayPayments.refundAttempts });
        return claimed?.attempts ?? null;
      },
      record: async (refund) => {
        await deps.db
          .update(strayPayments)
          .set({ providerRefundId: refund.id, refundStatus: refund.status })
          .where(unsent);
      },
    });
  }
}

/**
 * One refund asked of the provider, each try under a key of its own: the provider keeps a request's
 * answer, an error too, for a day, so a try that failed would fail again for a day under its old key. A
 * try after the first looks for a refund an earlier one made (its answer lost, say) before asking
 * again; and the provider never refunds more than a payment's amount, so two tries at once (two
 * instances) refund it once, the other refused and finding that refund at its next run.
 */
async function sendRefund(deps: RefundDeps, due: DueRefund): Promise<void> {
  const { payments } = deps;
  if (!payments) return;
  try {
    const attempt = await due.claim();
    if (attempt === null) return;
    const earlier =
      attempt > 1
        ? (await payments.refundsOf(due.paymentId)).find((refund) => refund.status !== 'failed')
        : undefined;
    await due.record(
      earlier ??
        (await payments.refund({
          key: `${due.key}-attempt-${attempt}`,
          paymentId: due.paymentId,
          amountCents: due.amountCents,
          metadata: due.metadata,
        })),
    );
  } catch (error) {
    deps.log.warn({ err: error, refund: due.key }, 'refund not sent; retrying next run');
  }
}

/**
 * A payment that is no order's to take (schema.ts strayPayments): recorded with its movement and its
 * refund in one transaction, once however often it is reported, then paid back.
 */
export async function refuseStrayPayment(
  deps: RefundDeps,
  stray: Pick<StrayPaymentRow, 'checkoutSessionId' | 'orderId' | 'reason'>,
  payment: Payment,
  now: Date,
): Promise<void> {
  const facts = { ...stray, ...payment };
  await deps.db.transaction(async (tx) => {
    const [recorded] = await tx
      .insert(strayPayments)
      .values({ ...facts, createdAt: now })
      .onConflictDoNothing()
      .returning();
    if (!recorded) return;
    await post(tx, strayPaymentOf(facts, now));
    await post(tx, strayRefundOf(facts, now));
  });
  deps.log.warn(
    {
      paymentId: payment.paymentId,
      sessionId: stray.checkoutSessionId,
      orderId: stray.orderId,
      reason: stray.reason,
    },
    'a payment that is no order of ours to take; it is paid back',
  );
  await sendRefunds(deps);
}

/**
 * A refund moved on at the provider: its state as the provider reports it now (a webhook's copy may be
 * older than one applied already) goes on the order or stray payment it pays back.
 */
export async function refundChanged(deps: RefundDeps, refundId: string): Promise<void> {
  if (!deps.payments) return;
  const refund = await deps.payments.refundById(refundId);
  await refundProgress(deps.db, refund);
  await deps.db
    .update(strayPayments)
    .set({ refundStatus: refund.status })
    .where(eq(strayPayments.providerRefundId, refund.id));
  if (refund.status === 'failed') {
    deps.log.error(
      { refundId, failure: refund.failure },
      'a refund failed: see npm run admin -- money-report',
    );
  }
}
