import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { orders, strayPayments, type StrayPaymentRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { post, strayPaymentOf, strayRefundOf } from '../ledger/ledger';
import { refundProgress, refundSent } from '../orders/order-lifecycle';
import type { Payment } from '../payments/payments';

type RefundDeps = Pick<Deps, 'db' | 'payments' | 'log'>;

/** How much one run takes on; the rest waits for the next run. */
const BATCH = 100;

/**
 * Refunds decided in the ledger whose money the provider has not yet been asked to send back: paid
 * orders refunded (a cancellation, an outage, a late payment) and stray payments. Each is asked once
 * (its idempotency key names it); an error leaves it for the next run.
 */
export async function sendRefunds(deps: RefundDeps): Promise<void> {
  const { payments } = deps;
  if (!payments) return;
  const refundedOrders = await deps.db
    .select({ id: orders.id, paymentId: orders.paymentId, totalCents: orders.totalCents })
    .from(orders)
    .where(and(eq(orders.status, 'refunded'), isNotNull(orders.paymentId), isNull(orders.providerRefundId)))
    .orderBy(asc(orders.id))
    .limit(BATCH);
  for (const order of refundedOrders) {
    if (!order.paymentId) continue;
    try {
      const refund = await payments.refund({
        key: `order-${order.id}`,
        paymentId: order.paymentId,
        amountCents: order.totalCents,
        metadata: { orderId: String(order.id) },
      });
      await refundSent(deps.db, order.id, refund);
    } catch (error) {
      deps.log.warn({ err: error, orderId: order.id }, 'refund not sent; retrying next run');
    }
  }
  const strays = await deps.db
    .select()
    .from(strayPayments)
    .where(isNull(strayPayments.providerRefundId))
    .orderBy(asc(strayPayments.createdAt))
    .limit(BATCH);
  for (const stray of strays) {
    try {
      const refund = await payments.refund({
        key: `payment-${stray.paymentId}`,
        paymentId: stray.paymentId,
        amountCents: stray.amountCents,
        metadata: { strayPayment: stray.reason },
      });
      await deps.db
        .update(strayPayments)
        .set({ providerRefundId: refund.id, refundStatus: refund.status })
        .where(eq(strayPayments.paymentId, stray.paymentId));
    } catch (error) {
      deps.log.warn({ err: error, paymentId: stray.paymentId }, 'stray refund not sent; retrying next run');
    }
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
