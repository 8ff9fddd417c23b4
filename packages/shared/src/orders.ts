import { z } from 'zod';

/** POST /orders; an `Idempotency-Key` header makes a retry answer the first order. */
export const ZCreateOrderRequest = z.object({
  eventId: z.coerce
    .number({ error: 'Event id must be a number' })
    .int('Event id must be a whole number')
    .positive(),
  quantity: z.coerce
    .number({ error: 'Quantity must be a number' })
    .int('Quantity must be a whole number')
    .min(1, 'Quantity must be at least 1'),
});
export type CreateOrderRequest = z.infer<typeof ZCreateOrderRequest>;

export const ZIdempotencyKey = z
  .string()
  .trim()
  .min(1)
  .max(200, 'Idempotency-Key must be at most 200 characters');

export const ORDER_STATUSES = ['completed'] as const;

export const ZOrder = z.object({
  id: z.number().int(),
  status: z.enum(ORDER_STATUSES),
  quantity: z.number().int(),
  unitPrice: z.number(),
  totalAmount: z.number(),
  createdAt: z.string(),
  event: z.object({
    id: z.number().int(),
    name: z.string(),
    image: z.string().nullable(),
    date: z.string(),
  }),
});
export type Order = z.infer<typeof ZOrder>;
