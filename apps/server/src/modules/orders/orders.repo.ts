import { and, count, desc, eq, gt, inArray, isNull, or, sql, sum, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { nextIdOf, type Rows } from '../../db/guarded-write';
import { views } from '../../db/views';
import type { OrderStatus } from '@stagedoor/shared/orders';
import { accountView, lockedAccountView } from '../accounts/accounts.views';
import type { EventRow } from '../events/events.tables';
import { endedBy } from '../events/event-state';
import {
  eventsView as events,
  firstEventOf,
  firstTicketTypeOf,
  promoCodesView as promoCodes,
  ticketTypesView as ticketTypes,
} from '../events/events.views';
import type { OrderMailFacts } from '../mail/outbox';
import { orders, ticketGifts, type OrderRow } from './orders.tables';
import type { ProviderRefund } from '../payments/payments';

export type OrderedEvent = Pick<EventRow, 'id' | 'name' | 'image' | 'date' | 'replayEnabled' | 'hasReplay'>;

/** What kind of ticket an order is: its type's name, and the code it used. */
export interface OrderTicket {
  type: string;
  promoCode: string | null;
}

/** An order with the event it is for, as every answer shows it. */
export interface OrderWithEvent {
  order: OrderRow;
  event: OrderedEvent;
  ticket: OrderTicket;
}

export interface Purchase {
  accountId: number;
  eventId: number;
  /** null: the event's first type. */
  ticketTypeId: number | null;
  quantity: number;
  /** The type's price the buyer saw; when the stored price differs, nothing is taken. */
  unitPriceCents: number | null;
  /** Paying what they want: each ticket's amount; null: the suggested one. */
  amountCents: number | null;
  /** The promo code as typed (upper case); null: none. */
  promoCode: string | null;
  idempotencyKey: string | null;
  requestHash: string | null;
}

/** An account may have this many checkouts open at once, so nobody freezes an event's stock. */
export const MAX_OPEN_CHECKOUTS = 3;

/** Tickets held by pending orders or sold by completed ones: what counts against stock and per-buyer limits. */
const HOLDING_STATUSES = ['pending', 'completed'] as const;

const orderedEvent = {
  id: events.id,
  name: events.name,
  image: events.image,
  date: events.date,
  replayEnabled: events.replayEnabled,
  hasReplay: events.hasReplay,
};

/** The order's type and code, read beside it. */
const orderTicket = {
  type: sql<string>`(${views.select({ name: ticketTypes.name }).from(ticketTypes).where(eq(ticketTypes.id, orders.ticketTypeId))})`,
  promoCode: sql<
    string | null
  >`(${views.select({ code: promoCodes.code }).from(promoCodes).where(eq(promoCodes.id, orders.promoCodeId))})`,
};

/** The tickets an account holds for an event: completed plus pending orders. */
export function ticketsHeldBy(accountId: number, eventId: number): SQL<number> {
  return sql<number>`(select coalesce(sum(${orders.quantity}), 0) from ${orders} where ${and(
    eq(orders.accountId, accountId),
    eq(orders.eventId, eventId),
    inArray(orders.status, HOLDING_STATUSES),
  )})`;
}

/** The checkouts an account has open (pending orders), whatever the event. */
export async function openCheckoutsOf(tx: Database, accountId: number): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(orders)
    .where(and(eq(orders.accountId, accountId), eq(orders.status, 'pending')));
  return row?.total ?? 0;
}

const buyers = accountView('buyer');
const creators = accountView('creator');

/**
 * Locks the buyer's account (one purchase of an account at a time: the per-buyer sum and the open
 * checkouts it reads stay true) and reads, in the same statement, everything the order, its sale and
 * its receipt need: the buyer, the event as it stands, its creator and the creator's first event, and
 * the new order's id, with the values of `also` (ids of other rows the order comes with).
 */
export async function lockBuyerAndReadEvent<Also extends Record<string, SQL<number>>>(
  tx: Database,
  purchase: Pick<Purchase, 'accountId' | 'eventId' | 'ticketTypeId' | 'promoCode'>,
  also: Also,
) {
  const buyer = lockedAccountView('buyer', purchase.accountId);
  const [facts] = await tx
    .select({
      buyer: { email: buyer.email, firstName: buyer.firstName, timeZone: buyer.timeZone },
      event: { ...orderedEvent, priceCents: events.priceCents, creatorId: events.creatorId },
      creator: {
        firstName: creators.firstName,
        lastName: creators.lastName,
        foundingPartner: creators.foundingPartner,
        firstEventId: firstEventOf(events.creatorId),
      },
      type: {
        id: ticketTypes.id,
        name: ticketTypes.name,
        priceCents: ticketTypes.priceCents,
        maxTickets: ticketTypes.maxTickets,
        sold: ticketTypes.sold,
        salesStart: ticketTypes.salesStart,
        salesEnd: ticketTypes.salesEnd,
        suggestedCents: ticketTypes.suggestedCents,
      },
      code: {
        id: promoCodes.id,
        code: promoCodes.code,
        percentOff: promoCodes.percentOff,
        amountOffCents: promoCodes.amountOffCents,
        maxUses: promoCodes.maxUses,
        uses: promoCodes.uses,
        expiresAt: promoCodes.expiresAt,
        ticketTypeIds: promoCodes.ticketTypeIds,
      },
      orderId: nextIdOf(orders),
      also,
    })
    .from(buyer)
    .innerJoin(events, eq(events.id, purchase.eventId))
    .innerJoin(creators, eq(creators.id, events.creatorId))
    .leftJoin(
      ticketTypes,
      and(
        eq(ticketTypes.eventId, events.id),
        eq(ticketTypes.id, purchase.ticketTypeId ?? firstTicketTypeOf(events.id)),
      ),
    )
    .leftJoin(
      promoCodes,
      purchase.promoCode === null
        ? sql`false`
        : and(eq(promoCodes.eventId, events.id), eq(promoCodes.code, purchase.promoCode)),
    );
  return facts ?? null;
}

/** The order, its buyer, its show and the show's creator, in one query: what a receipt or a refund tells. */
export async function orderMailFacts(tx: Database, orderId: number): Promise<OrderMailFacts> {
  const [row] = await tx
    .select({
      order: {
        id: orders.id,
        quantity: orders.quantity,
        totalCents: orders.totalCents,
        discountCents: orders.discountCents,
      },
      ticket: orderTicket,
      buyer: { email: buyers.email, firstName: buyers.firstName, timeZone: buyers.timeZone },
      event: { id: events.id, name: events.name, date: events.date },
      creator: { firstName: creators.firstName, lastName: creators.lastName },
    })
    .from(orders)
    .innerJoin(buyers, eq(buyers.id, orders.accountId))
    .innerJoin(events, eq(events.id, orders.eventId))
    .innerJoin(creators, eq(creators.id, events.creatorId))
    .where(eq(orders.id, orderId));
  if (!row) throw new Error(`order ${orderId} not found`);
  return row;
}

/** Whether the event's creator is a founding partner, and which event they created first (the fee's facts). */
export async function feeFactsOf(
  tx: Database,
  creatorId: number,
): Promise<{ foundingPartner: boolean; firstEventId: number | null }> {
  const [creator] = await tx
    .select({ foundingPartner: creators.foundingPartner, firstEventId: firstEventOf(creators.id) })
    .from(creators)
    .where(eq(creators.id, creatorId));
  if (!creator) throw new Error(`creator ${creatorId} not found`);
  return creator;
}

/**
 * A new order as it is written: what the purchase decided, every other column as a new order has it
 * (no checkout, payment, refund or dispute yet).
 */
export function newOrder(
  id: number,
  purchase: Pick<Purchase, 'accountId' | 'eventId' | 'quantity' | 'idempotencyKey' | 'requestHash'>,
  decided: Pick<
    OrderRow,
    | 'ticketTypeId'
    | 'unitPriceCents'
    | 'promoCodeId'
    | 'discountCents'
    | 'totalCents'
    | 'status'
    | 'createdAt'
    | 'expiresAt'
    | 'completedAt'
  >,
): OrderRow {
  return {
    id,
    accountId: purchase.accountId,
    eventId: purchase.eventId,
    quantity: purchase.quantity,
    idempotencyKey: purchase.idempotencyKey,
    requestHash: purchase.requestHash,
    ...decided,
    checkoutSessionId: null,
    checkoutUrl: null,
    paymentId: null,
    chargeId: null,
    processorFeeCents: 0,
    refundedAt: null,
    refundReason: null,
    providerRefundId: null,
    refundAttempts: 0,
    refundStatus: null,
    refundFailure: null,
    disputeId: null,
    disputeStatus: null,
  };
}

/** A new order's row, written with the rows it comes with (order-lifecycle.ts placeOrder). */
/** A new order's id, taken from its sequence before the order is written (db/guarded-write.ts nextIdOf). */
export async function nextOrderId(tx: Database): Promise<number> {
  const [row] = await tx.select({ id: nextIdOf(orders) }).from(sql`(select 1) as "one"`);
  if (!row) throw new Error('no order id');
  return row.id;
}

export const orderRows = (order: OrderRow): Rows<typeof orders> => ({ table: orders, rows: [order] });

/** The order, locked until the caller's transaction ends: its status cannot change meanwhile. */
export async function lockOrder(tx: Database, orderId: number): Promise<OrderRow | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return order ?? null;
}

/** The event's orders in that status, locked until the caller's transaction ends. */
export function lockOrdersOfEvent(tx: Database, eventId: number, status: OrderStatus): Promise<OrderRow[]> {
  return tx
    .select()
    .from(orders)
    .where(and(eq(orders.eventId, eventId), eq(orders.status, status)))
    .for('update');
}

/**
 * The order moved to another status, only from one of `from`: a status it left meanwhile changes
 * nothing (null), so concurrent moves of one order apply once. Only order-lifecycle.ts calls this.
 */
export async function moveOrder(
  tx: Database,
  orderId: number,
  from: readonly OrderStatus[],
  changes: Partial<OrderRow> & { status: OrderStatus },
): Promise<OrderRow | null> {
  const [order] = await tx
    .update(orders)
    .set(changes)
    .where(and(eq(orders.id, orderId), inArray(orders.status, [...from])))
    .returning();
  return order ?? null;
}

/** A pending order whose payment is clearing: it names the payment and has no hold end any more. */
export async function setClearing(
  tx: Database,
  orderId: number,
  paymentId: string,
): Promise<OrderRow | null> {
  const [order] = await tx
    .update(orders)
    .set({ paymentId, expiresAt: null })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'pending')))
    .returning();
  return order ?? null;
}

/** The order a payment paid, locked until the caller's transaction ends. */
export async function lockOrderByPayment(tx: Database, paymentId: string): Promise<OrderRow | null> {
  const [order] = await tx.select().from(orders).where(eq(orders.paymentId, paymentId)).for('update');
  return order ?? null;
}

/** One more try at a refunded order's refund not yet sent: the try's number, or null once sent. */
export async function countRefundAttempt(db: Database, orderId: number): Promise<number | null> {
  const [order] = await db
    .update(orders)
    .set({ refundAttempts: sql`${orders.refundAttempts} + 1` })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'refunded'), isNull(orders.providerRefundId)))
    .returning({ attempts: orders.refundAttempts });
  return order?.attempts ?? null;
}

/** A refunded order's refund at the provider, once it accepted it; set once. */
export async function recordProviderRefund(
  db: Database,
  orderId: number,
  refund: ProviderRefund,
): Promise<void> {
  await db
    .update(orders)
    .set({ providerRefundId: refund.id, refundStatus: refund.status, refundFailure: refund.failure })
    .where(and(eq(orders.id, orderId), eq(orders.status, 'refunded'), isNull(orders.providerRefundId)));
}

/** The refund's progress as the provider reports it now, on the order it pays back. */
export async function updateRefundProgress(db: Database, refund: ProviderRefund): Promise<void> {
  await db
    .update(orders)
    .set({ refundStatus: refund.status, refundFailure: refund.failure })
    .where(eq(orders.providerRefundId, refund.id));
}

/** What the provider says of a dispute of the order's payment, its status unchanged. */
export async function recordDispute(
  tx: Database,
  orderId: number,
  dispute: Partial<Pick<OrderRow, 'disputeId' | 'disputeStatus'>>,
): Promise<OrderRow | null> {
  const [order] = await tx.update(orders).set(dispute).where(eq(orders.id, orderId)).returning();
  return order ?? null;
}

export async function findOrderByIdempotencyKey(
  db: Database,
  accountId: number,
  idempotencyKey: string,
): Promise<OrderWithEvent | null> {
  const [row] = await db
    .select({ order: orders, event: orderedEvent, ticket: orderTicket })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(and(eq(orders.accountId, accountId), eq(orders.idempotencyKey, idempotencyKey)));
  return row ?? null;
}

export async function findOrderById(db: Database, id: number): Promise<OrderWithEvent | null> {
  const [row] = await db
    .select({ order: orders, event: orderedEvent, ticket: orderTicket })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(eq(orders.id, id));
  return row ?? null;
}

/** The order a checkout was opened for (its own session), or null. */
export async function findOrderByCheckout(db: Database, sessionId: string): Promise<OrderRow | null> {
  const [order] = await db.select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
  return order ?? null;
}

/** The provider's checkout for a pending order, recorded once it is open. */
export async function setCheckout(
  db: Database,
  orderId: number,
  checkout: { sessionId: string; url: string },
): Promise<OrderRow> {
  const [order] = await db
    .update(orders)
    .set({ checkoutSessionId: checkout.sessionId, checkoutUrl: checkout.url })
    .where(eq(orders.id, orderId))
    .returning();
  if (!order) throw new Error(`order ${orderId} vanished`);
  return order;
}

/**
 * A held order about to open its checkout keeps its tickets at least until `until` (a checkout's own
 * length), while still pending, held and without one; null when it is not.
 */
export async function holdForCheckout(
  db: Database,
  orderId: number,
  { until, now }: { until: Date; now: Date },
): Promise<OrderRow | null> {
  const [order] = await db
    .update(orders)
    .set({ expiresAt: sql`greatest(${orders.expiresAt}, ${until})` })
    .where(
      and(
        eq(orders.id, orderId),
        eq(orders.status, 'pending'),
        isNull(orders.checkoutSessionId),
        gt(orders.expiresAt, now),
      ),
    )
    .returning();
  return order ?? null;
}

export async function ticketsHeldOf(db: Database, accountId: number, eventId: number): Promise<number> {
  const [row] = await db.select({ held: ticketsHeldBy(accountId, eventId) }).from(sql`(select 1) as one`);
  return Number(row?.held ?? 0);
}

/** Whether the account has a refunded order for the event (it may hold other tickets too). */
export async function hasRefundedOrder(db: Database, accountId: number, eventId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.accountId, accountId), eq(orders.eventId, eventId), eq(orders.status, 'refunded')))
    .limit(1);
  return row !== undefined;
}

const giftAccounts = accountView('gift_account');

/**
 * A page of the account's orders and of those it gave away (My Tickets), each with whom it went to or
 * came from: the shows still to come or on first, soonest first, then those that ended, latest first.
 */
export function listOrdersOf(
  db: Database,
  accountId: number,
  page: { limit: number; offset: number },
  now: Date,
): Promise<(OrderWithEvent & { givenTo: string | null; giftFrom: string | null })[]> {
  const ended = endedBy(now);
  const lastGift = (direction: 'from' | 'to') =>
    db
      .select({
        name:
          direction === 'from'
            ? giftAccounts.email
            : sql<string>`trim(${giftAccounts.firstName} || ' ' || ${giftAccounts.lastName})`,
      })
      .from(ticketGifts)
      .innerJoin(
        giftAccounts,
        eq(giftAccounts.id, direction === 'from' ? ticketGifts.toAccountId : ticketGifts.fromAccountId),
      )
      .where(
        and(
          eq(ticketGifts.orderId, orders.id),
          eq(direction === 'from' ? ticketGifts.fromAccountId : ticketGifts.toAccountId, accountId),
        ),
      )
      .orderBy(desc(ticketGifts.id))
      .limit(1);
  const mine = eq(orders.accountId, accountId);
  return db
    .select({
      order: orders,
      event: orderedEvent,
      ticket: orderTicket,
      // Given by this account and no longer its own: to whom (the receiver's address).
      givenTo: sql<string | null>`case when not ${mine} then (${lastGift('from')}) end`,
      // Its own, and given to it: by whom (the giver's name).
      giftFrom: sql<string | null>`case when ${mine} then (${lastGift('to')}) end`,
    })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(
      or(
        mine,
        inArray(
          orders.id,
          db
            .select({ id: ticketGifts.orderId })
            .from(ticketGifts)
            .where(eq(ticketGifts.fromAccountId, accountId)),
        ),
      ),
    )
    .orderBy(
      ended,
      sql`case when not ${ended} then ${events.date} end asc`,
      sql`case when ${ended} then ${events.date} end desc`,
      desc(orders.id),
    )
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * Gives a completed order of `fromAccountId` to `toAccountId`, recording the gift, only while it is
 * still the giver's and completed: of two gifts of one order at once, one moves it and the other finds it
 * gone. Answers the gift's id, or null.
 */
export async function giveOrder(
  tx: Database,
  orderId: number,
  fromAccountId: number,
  toAccountId: number,
): Promise<{ giftId: number } | null> {
  const [moved] = await tx
    .update(orders)
    .set({ accountId: toAccountId })
    .where(and(eq(orders.id, orderId), eq(orders.accountId, fromAccountId), eq(orders.status, 'completed')))
    .returning({ id: orders.id });
  if (!moved) return null;
  const [gift] = await tx
    .insert(ticketGifts)
    .values({ orderId, fromAccountId, toAccountId })
    .returning({ giftId: ticketGifts.id });
  if (!gift) throw new Error('insert into ticket_gifts returned no row');
  return gift;
}

/** How a gift moves an order; tests may swap in another (see TestSeams in app.ts). */
export type GiveOrder = typeof giveOrder;

/** How many orders the account placed and the tickets its completed ones hold, over all events or one. */
export async function orderSummaryOf(
  db: Database,
  accountId: number,
  eventId: number | undefined,
): Promise<{ orders: number; tickets: number }> {
  const [row] = await db
    .select({
      orders: count(),
      tickets: sql<string>`coalesce(sum(${orders.quantity}) filter (where ${orders.status} = 'completed'), 0)`,
    })
    .from(orders)
    .where(
      and(eq(orders.accountId, accountId), eventId === undefined ? undefined : eq(orders.eventId, eventId)),
    );
  return { orders: row?.orders ?? 0, tickets: Number(row?.tickets ?? 0) };
}

/** The tickets and the money of the creator's completed orders, over all their events. */
export async function salesOfCreator(
  db: Database,
  creatorId: number,
): Promise<{ tickets: number; cents: number }> {
  const [sales] = await db
    .select({ tickets: sum(orders.quantity), cents: sum(orders.totalCents) })
    .from(orders)
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(and(eq(events.creatorId, creatorId), eq(orders.status, 'completed')));
  // SUM answers a numeric (text) or NULL when there are no orders.
  return { tickets: Number(sales?.tickets ?? 0), cents: Number(sales?.cents ?? 0) };
}

/** What the completed orders of one day brought. */
export interface DaySales {
  /** `YYYY-MM-DD`. */
  day: string;
  orders: number;
  tickets: number;
  cents: number;
}

/**
 * The event's completed orders by the day each completed on in `timeZone` (an IANA zone the account's
 * settings checked), oldest first; days without any are left out.
 */
export async function salesOfEventByDay(
  db: Database,
  eventId: number,
  timeZone: string,
): Promise<DaySales[]> {
  const rows = await db
    .select({
      day: sql<string>`to_char((${orders.completedAt} at time zone ${timeZone})::date, 'YYYY-MM-DD')`,
      orders: count(),
      tickets: sum(orders.quantity),
      cents: sum(orders.totalCents),
    })
    .from(orders)
    .where(and(eq(orders.eventId, eventId), eq(orders.status, 'completed')))
    // By the first column: the day's expression carries the zone as a parameter, which a repeated
    // expression would bind again under another number, and PostgreSQL would not see them as one.
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  // SUM answers a numeric (text).
  return rows.map((row) => ({
    day: row.day,
    orders: row.orders,
    tickets: Number(row.tickets ?? 0),
    cents: Number(row.cents ?? 0),
  }));
}

/** The event's completed orders by ticket type, every type of the event in its order (none sold: 0). */
export async function salesOfEventByType(
  db: Database,
  eventId: number,
): Promise<{ name: string; tickets: number; cents: number }[]> {
  const rows = await db
    .select({
      name: ticketTypes.name,
      tickets: sql<string>`coalesce(sum(${orders.quantity}), 0)`,
      cents: sql<string>`coalesce(sum(${orders.totalCents}), 0)`,
    })
    .from(ticketTypes)
    .leftJoin(orders, and(eq(orders.ticketTypeId, ticketTypes.id), eq(orders.status, 'completed')))
    .where(eq(ticketTypes.eventId, eventId))
    .groupBy(ticketTypes.id, ticketTypes.name, ticketTypes.position)
    .orderBy(ticketTypes.position, ticketTypes.id);
  // SUM answers a numeric (text).
  return rows.map((row) => ({ name: row.name, tickets: Number(row.tickets), cents: Number(row.cents) }));
}

/** Pending orders holding tickets while their buyers pay, the whole deployment's. */
export async function countPendingOrders(db: Database): Promise<number> {
  const [row] = await db.select({ total: count() }).from(orders).where(eq(orders.status, 'pending'));
  return row?.total ?? 0;
}
