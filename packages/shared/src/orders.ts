import { z } from 'zod';
import { pageQuery, positiveId, wholeNumber, ZAmount, ZPrice } from './events';
import { ZPromoCodeText } from './promo-codes';
import { ZEmail } from './accounts';
import { EVENT_MAX_TICKETS_MAX } from './limits';

/**
 * A purchase retried with the same key (a double click, a lost answer) answers the first order instead
 * of buying again: 201 the first time, 200 for every replay.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/**
 * POST /orders (and POST /orders/quote, which answers what it would cost); the total is computed by the
 * server from the ticket type's stored price. `unitPrice` is the price the buyer saw: when the stored
 * price differs, nothing is taken and the answer is a 409 naming it. `ticketTypeId`: absent, the
 * event's first type. `promoCode`: a code of the event's creator, off each ticket. `amount`: what the
 * buyer pays a ticket of a pay-what-you-want type (at least its minimum; absent, the suggested one).
 */
export const ZCreateOrderRequest = z.object({
  eventId: positiveId('Event id'),
  quantity: wholeNumber('Quantity', 1, EVENT_MAX_TICKETS_MAX),
  unitPrice: ZPrice.optional(),
  ticketTypeId: positiveId('Ticket type id').optional(),
  promoCode: ZPromoCodeText.optional(),
  amount: ZAmount.optional(),
});
export type CreateOrderRequest = z.infer<typeof ZCreateOrderRequest>;

export const ZIdempotencyKey = z
  .string()
  .trim()
  .min(1, 'Idempotency-Key must not be blank')
  .max(200, 'Idempotency-Key must be at most 200 characters');

/**
 * pending: tickets held while the buyer pays; completed: paid (or free of charge without a payment
 * provider); expired: the hold ran out and the tickets went back on sale; refunded: paid back in full;
 * disputed: the buyer's bank took the payment back (a chargeback), the tickets no longer admit them.
 */
export const ORDER_STATUSES = ['pending', 'completed', 'expired', 'refunded', 'disputed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Why an order was refunded: its event cancelled, an outage, a payment too late for any ticket, or a refund made in the payment provider's own dashboard. */
export const REFUND_REASONS = ['cancelled', 'outage', 'late_payment', 'dashboard'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

/**
 * A refunded order's money on its way back: pending until the payment provider reports it sent,
 * succeeded, or failed (the card was closed, say: Stagedoor's team sees it and pays the fan another way).
 * The fan sees "Refund pending" until it succeeded, never "Refunded" before.
 */
export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** POST /orders/{id}/confirm: the checkout the fan came back from (Stripe's {CHECKOUT_SESSION_ID}). */
export const ZConfirmCheckoutRequest = z.object({
  sessionId: z
    .string({ error: 'sessionId is required' })
    .trim()
    .min(1, 'sessionId is required')
    .max(255, 'sessionId must be at most 255 characters'),
});

/** GET /orders/{id} */
export const ZOrderIdParams = z.object({ id: positiveId('Order id') });

/** An order as POST /orders and GET /orders present it; amounts in dollars with two decimals. */
export const ZOrder = z.object({
  id: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  quantity: z.number().int(),
  unitPrice: z.number(),
  totalAmount: z.number(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  /** Where a pending order is paid (the payment provider's page); null otherwise. */
  checkoutUrl: z.string().nullable(),
  /**
   * When a pending order's hold runs out (ISO 8601, UTC); null otherwise, and for a pending order whose
   * bank payment is clearing (it keeps its tickets until the bank answers, and has no checkout to go to).
   */
  expiresAt: z.string().nullable(),
  /** A refunded order's refund: REFUND_STATUSES; null for an order not refunded. */
  refundStatus: z.enum(REFUND_STATUSES).nullable(),
  /** The address the caller gave this order's tickets to (they are no longer the caller's); else null. */
  givenTo: z.string().nullable(),
  /** Who gave the caller this order's tickets (their name); null for tickets the caller bought. */
  giftFrom: z.string().nullable(),
  /** The kind of ticket: its type's name. */
  ticketType: z.string(),
  /** The promo code the order used, and what it took off the whole order (dollars); null and 0 without one. */
  promoCode: z.string().nullable(),
  discount: z.number(),
  event: z.object({
    id: z.number().int(),
    name: z.string(),
    image: z.string().nullable(),
    /** ISO 8601, UTC. */
    date: z.string(),
    /** A replay of its show is ready (events.ts `hasReplay`): My Tickets offers it. */
    hasReplay: z.boolean(),
  }),
});
export type Order = z.infer<typeof ZOrder>;

/** POST /orders/quote: what the purchase would cost now, before anything is taken or charged. */
export const ZOrderQuote = z.object({
  ticketType: z.object({ id: z.number().int(), name: z.string() }),
  quantity: z.number().int(),
  /** A ticket's price before the code (for pay what you want, the amount chosen). */
  unitPrice: z.number(),
  subtotal: z.number(),
  promoCode: z.string().nullable(),
  discount: z.number(),
  total: z.number(),
});
export type OrderQuote = z.infer<typeof ZOrderQuote>;

/**
 * GET /orders?limit&offset: a page of the account's orders and those it gave away: the shows still to
 * come or on first, soonest first, then those that ended, latest first.
 */
export const ZOrderListQuery = z.object(pageQuery);
export type OrderListQuery = z.infer<typeof ZOrderListQuery>;

export const ZOrderList = z.array(ZOrder);

/** POST /orders/{id}/transfer: gives the order's tickets to the account with this address (made if none). */
export const ZTransferRequest = z.object({ email: ZEmail });
export type TransferRequest = z.infer<typeof ZTransferRequest>;

/** GET /orders/summary?eventId: what the account's orders add up to, over all events or one. */
export const ZOrderSummaryQuery = z.object({ eventId: positiveId('eventId').optional() });

export const ZOrderSummary = z.object({
  /** How many orders the account has placed, whatever became of them. */
  orders: z.number().int(),
  /** The tickets of its completed orders. */
  tickets: z.number().int(),
});
export type OrderSummary = z.infer<typeof ZOrderSummary>;
