import { z } from 'zod';
import { positiveId, wholeNumber } from './events';
import { EVENT_MAX_TICKETS_MAX } from './limits';

/**
 * A purchase retried with the same key (a double click, a lost answer) answers the first order instead
 * of buying again: 201 the first time, 200 for every replay.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** POST /orders; the total is computed by the server from the event's stored price. */
export const ZCreateOrderRequest = z.object({
  eventId: positiveId('Event id'),
  quantity: wholeNumber('Quantity', 1, EVENT_MAX_TICKETS_MAX),
});
export type CreateOrderRequest = z.infer<typeof ZCreateOrderRequest>;

export const ZIdempotencyKey = z
  .string()
  .trim()
  .min(1, 'Idempotency-Key must not be blank')
  .max(200, 'Idempotency-Key must be at most 200 characters');

export const ORDER_STATUSES = ['completed'] as const;

/** An order as POST /orders and GET /orders present it; amounts in dollars with two decimals. */
export const ZOrder = z.object({
  id: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  quantity: z.number().int(),
  unitPrice: z.number(),
  totalAmount: z.number(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  event: z.object({
    id: z.number().int(),
    name: z.string(),
    image: z.string().nullable(),
    /** ISO 8601, UTC. */
    date: z.string(),
  }),
});
export type Order = z.infer<typeof ZOrder>;

export const ZOrderList = z.array(ZOrder);
