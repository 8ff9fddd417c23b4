import { createHash } from 'node:crypto';
import { fromCents } from '@stagedoor/shared/events';
import type { CreateOrderRequest, Order } from '@stagedoor/shared/orders';
import { violatedUniqueIndex } from '../../db/database';
import { ORDER_IDEMPOTENCY_INDEX, type AccountRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { EVENT_NOT_FOUND_MESSAGE } from '../events/events.service';
import { findEventById } from '../events/events.repo';
import { findOrderByIdempotencyKey, listOrdersOf, type OrderWithEvent } from './orders.repo';

export const NOT_ON_SALE_MESSAGE = 'This event is not on sale';
export const ALREADY_STARTED_MESSAGE = 'This event has already started';
export const KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used for another purchase';

export function ticketsLeftMessage(left: number): string {
  if (left <= 0) return 'No tickets left';
  return left === 1 ? 'Only 1 ticket left' : `Only ${left} tickets left`;
}

export interface Purchased {
  order: Order;
  /** True when the answer is the order an earlier request with the same Idempotency-Key placed. */
  replayed: boolean;
}

/**
 * POST /orders. The tickets are taken and the order recorded in one transaction (placeOrder), at the
 * event's stored price. With an Idempotency-Key, a retry gets the first order back: the key is looked
 * up first, and when two requests with the same key race, the unique index lets only one order in and
 * the other answers it.
 */
export async function purchaseTickets(
  deps: Pick<Deps, 'db' | 'placeOrder'>,
  account: AccountRow,
  input: CreateOrderRequest,
  idempotencyKey?: string,
): Promise<Purchased> {
  const keyed = idempotencyKey ? { idempotencyKey, requestHash: hashPurchase(input) } : null;
  if (keyed) {
    const earlier = await earlierPurchase(deps, account, keyed);
    if (earlier) return { order: earlier, replayed: true };
  }

  let placed: OrderWithEvent | null;
  try {
    placed = await deps.placeOrder(deps.db, {
      accountId: account.id,
      eventId: input.eventId,
      quantity: input.quantity,
      idempotencyKey: keyed?.idempotencyKey ?? null,
      requestHash: keyed?.requestHash ?? null,
    });
  } catch (error) {
    if (!keyed || violatedUniqueIndex(error) !== ORDER_IDEMPOTENCY_INDEX) throw error;
    // A request with the same key committed between our look-up and our insert (our transaction, and
    // the tickets it took, were rolled back): its order is the answer.
    const earlier = await earlierPurchase(deps, account, keyed);
    if (!earlier) throw error;
    return { order: earlier, replayed: true };
  }
  if (!placed) throw await whyNotSold(deps, input);
  return { order: toOrder(placed), replayed: false };
}

/** The order placed earlier with this key, if any; the key used for another purchase is a 409. */
async function earlierPurchase(
  deps: Pick<Deps, 'db'>,
  account: AccountRow,
  keyed: { idempotencyKey: string; requestHash: string },
): Promise<Order | null> {
  const earlier = await findOrderByIdempotencyKey(deps.db, account.id, keyed.idempotencyKey);
  if (!earlier) return null;
  if (earlier.order.requestHash !== keyed.requestHash) throw new AppError('CONFLICT', KEY_REUSED_MESSAGE);
  return toOrder(earlier);
}

/** The reason the stock step took nothing, read after the fact: it only words the refusal. */
async function whyNotSold(deps: Pick<Deps, 'db'>, input: CreateOrderRequest): Promise<AppError> {
  const event = await findEventById(deps.db, input.eventId);
  if (!event) return new AppError('NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  if (!event.isActive) return new AppError('CONFLICT', NOT_ON_SALE_MESSAGE);
  if (event.date.getTime() <= Date.now()) return new AppError('CONFLICT', ALREADY_STARTED_MESSAGE);
  const message = ticketsLeftMessage(event.maxTickets - event.sold);
  return new AppError('CONFLICT', message, { quantity: message });
}

/** What a keyed request asked for: the same key with another purchase is refused, not replayed. */
function hashPurchase(input: CreateOrderRequest): string {
  return createHash('sha256')
    .update(JSON.stringify([input.eventId, input.quantity]))
    .digest('hex');
}

/** GET /orders: the caller's orders, newest first. */
export async function listOrders(deps: Pick<Deps, 'db'>, account: AccountRow): Promise<Order[]> {
  return (await listOrdersOf(deps.db, account.id)).map(toOrder);
}

function toOrder({ order, event }: OrderWithEvent): Order {
  return {
    id: order.id,
    status: order.status,
    quantity: order.quantity,
    unitPrice: fromCents(order.unitPriceCents),
    totalAmount: fromCents(order.totalCents),
    createdAt: order.createdAt.toISOString(),
    event: { id: event.id, name: event.name, image: event.image, date: event.date.toISOString() },
  };
}
