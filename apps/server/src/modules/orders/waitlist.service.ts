import { NOT_IN_LINE, type JoinWaitlistRequest, type WaitlistPlace } from '@stagedoor/shared/waitlist';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import type { AccountRow } from '../accounts/accounts.tables';
import { lockEventRow } from '../events/event-state';
import { maxPerBuyerOf } from '../events/per-buyer';
import {
  closeCheckouts,
  getOrder,
  notSellingTo,
  perBuyerMessage,
  quantityConflict,
  ticketsHeld,
} from './orders.service';
import { joinLine, leaveLine, placeInLine } from './waitlist.repo';

/**
 * The waitlist (DESIGN.md "Ticket options"): a fan joins a sold-out show's line, sees their place, and
 * leaves it. Tickets that come back go to the line in the order lifecycle (offerTicketsBack), as
 * pending orders the fan buys with POST /orders/{id}/checkout.
 */

const STILL_ON_SALE_MESSAGE = 'These tickets are still on sale: buy them now';
const ALREADY_IN_LINE_MESSAGE = 'You are already on the waitlist for this event';

/** GET /events/{id}/waitlist: the caller's place in the event's line. */
export async function waitlistPlace(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  eventId: number,
): Promise<WaitlistPlace> {
  const place = await placeInLine(deps.db, eventId, account.id);
  if (!place) return NOT_IN_LINE;
  const { quantity } = place;
  if (place.orderId === null) return { status: 'waiting', quantity, position: place.ahead + 1, offer: null };
  const order = await getOrder(deps, account, place.orderId);
  // A hold past its end is over, though the settlement job may not have expired its order yet.
  if (order.status !== 'pending' || !order.expiresAt || new Date(order.expiresAt) <= new Date()) {
    return NOT_IN_LINE;
  }
  return {
    status: 'offered',
    quantity,
    position: null,
    offer: {
      orderId: order.id,
      expiresAt: order.expiresAt,
      ticketType: order.ticketType,
      total: order.totalAmount,
    },
  };
}

/**
 * POST /events/{id}/waitlist: the caller joins the event's line, for tickets it cannot sell them now:
 * it sells (not cancelled, on sale, not started), and has fewer free than they ask for, within their
 * per-buyer limit. Judged under the event's row lock, which tickets coming back also take: they are
 * either offered before the fan is in line (and the fan finds them on sale), or after, to the line.
 */
export async function joinWaitlist(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  eventId: number,
  { quantity }: JoinWaitlistRequest,
): Promise<WaitlistPlace> {
  await deps.db.transaction(async (tx) => {
    const event = await lockEventRow(tx, eventId);
    const refused = notSellingTo(event, account);
    if (refused || !event) throw refused;
    if (quantity <= event.maxTickets - event.sold) throw quantityConflict(STILL_ON_SALE_MESSAGE);
    const limit = maxPerBuyerOf(event);
    const held = await ticketsHeld(tx, account.id, eventId);
    if (held + quantity > limit) throw quantityConflict(perBuyerMessage(limit, held));
    // Waiting, or holding their turn's tickets: one place per fan. The unique index settles two joins at once.
    const inLine =
      (await placeInLine(tx, eventId, account.id)) !== null ||
      !(await joinLine(tx, { eventId, accountId: account.id, quantity, joinedAt: new Date() }));
    if (inLine) throw new AppError('CONFLICT', ALREADY_IN_LINE_MESSAGE);
  });
  return waitlistPlace(deps, account, eventId);
}

/**
 * DELETE /events/{id}/waitlist: the caller leaves the event's line. When their turn had come, the
 * tickets held for them are let go at once (their checkout closed first, if they opened one): they go
 * to the next fan in line. Leaving a line one is not in changes nothing.
 */
export async function leaveWaitlist(
  deps: Pick<Deps, 'db' | 'payments' | 'log' | 'config'>,
  account: AccountRow,
  eventId: number,
): Promise<void> {
  if (await leaveLine(deps.db, eventId, account.id)) return;
  const place = await placeInLine(deps.db, eventId, account.id);
  if (!place || place.orderId === null) return;
  await closeCheckouts(deps, [{ id: place.orderId, checkoutSessionId: place.checkoutSessionId }], new Date());
}
