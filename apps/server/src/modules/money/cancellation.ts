import { fromCents } from '@stagedoor/shared/events';
import { eventState } from '@stagedoor/shared/event-state';
import { PENALTY_NOTICE_HOURS, type Cancellation } from '@stagedoor/shared/money';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/database';
import type { EventRow } from '../events/events.tables';
import { lockEventRow, markCancelled } from '../events/event-state';
import { ordersView as orders } from '../orders/orders.views';
import type { AccountRow } from '../accounts/accounts.tables';
import type { RefundReason } from '@stagedoor/shared/orders';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { assertOwner } from '../../policy';
import { EVENT_NOT_FOUND_MESSAGE } from '../events/events.service';
import { refundCompletedOrders } from '../orders/order-lifecycle';
import { penaltyOf, post, releasesOf } from '../ledger/ledger';
import { sendRefunds } from './refunds';
import { closeCheckouts } from '../orders/orders.service';

const ALREADY_CANCELLED_MESSAGE = 'This event is already cancelled';
const ALREADY_ENDED_MESSAGE = 'This event has already ended and can no longer be cancelled';
const EARNINGS_RELEASED_MESSAGE =
  "This event's earnings were already released to its creator; its buyers can no longer be refunded here";

const HOUR_MS = 3_600_000;

type CancelDeps = Pick<Deps, 'db' | 'payments' | 'log' | 'config'>;

/**
 * POST /events/{id}/cancel (the owner): the event stops selling for good, every completed order is
 * refunded in full, open checkouts are closed, and a cancellation less than PENALTY_NOTICE_HOURS
 * before the start costs the creator the penalty, all in one transaction. The provider's refunds
 * follow at once (and are retried by the settlement job until they go through).
 */
export async function cancelEvent(
  deps: CancelDeps,
  account: AccountRow,
  eventId: number,
  now: Date,
): Promise<Cancellation> {
  const { cancellation, openCheckouts } = await deps.db.transaction(async (tx) => {
    const event = await lockEvent(tx, eventId);
    assertOwner(account, event);
    const state = eventState(event, now);
    if (state.cancelled) throw new AppError('CONFLICT', ALREADY_CANCELLED_MESSAGE);
    if (!state.cancellable) throw new AppError('CONFLICT', ALREADY_ENDED_MESSAGE);
    await markCancelled(tx, eventId, now);
    const refunded = await refundCompletedOrders(tx, event, 'cancelled', now);
    const late = event.date.getTime() - now.getTime() < PENALTY_NOTICE_HOURS * HOUR_MS;
    const penalty = late && refunded.grossCents > 0 ? penaltyOf(event, refunded.grossCents, now) : null;
    if (penalty) await post(tx, penalty);
    const pending = await tx
      .select({ id: orders.id, checkoutSessionId: orders.checkoutSessionId })
      .from(orders)
      .where(and(eq(orders.eventId, eventId), eq(orders.status, 'pending')));
    return {
      cancellation: {
        refundedOrders: refunded.orders,
        refunded: fromCents(refunded.grossCents),
        penalty: fromCents(penalty ? -(penalty.entries[0]?.amountCents ?? 0) : 0),
      },
      openCheckouts: pending,
    };
  });
  await closeCheckouts(deps, openCheckouts, now);
  await sendRefunds(deps);
  return cancellation;
}

/**
 * `npm run admin -- refund-event <id> --reason outage`: every completed order of the event refunded in
 * full, the platform's fault, so no penalty; only while the event's earnings are still pending.
 */
export async function refundEvent(
  deps: CancelDeps,
  eventId: number,
  reason: RefundReason,
  now: Date,
): Promise<Cancellation> {
  const refunded = await deps.db.transaction(async (tx) => {
    const event = await lockEvent(tx, eventId);
    if ((await releasesOf(tx, eventId)) > 0) throw new AppError('CONFLICT', EARNINGS_RELEASED_MESSAGE);
    return refundCompletedOrders(tx, event, reason, now);
  });
  await sendRefunds(deps);
  return { refundedOrders: refunded.orders, refunded: fromCents(refunded.grossCents), penalty: 0 };
}

async function lockEvent(tx: Database, eventId: number): Promise<EventRow> {
  const event = await lockEventRow(tx, eventId);
  if (!event) throw new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  return event;
}
