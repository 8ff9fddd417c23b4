import { z } from 'zod';
import { EVENT_MAX_TICKETS_MAX, TICKET_TYPES_MAX } from './limits';
import { positiveId, wholeNumber, ZAmount } from './events';

/**
 * A promo code as a fan types it: letters, digits, - and _, compared without regard to case (kept in
 * upper case).
 */
export const ZPromoCodeText = z
  .string({ error: 'Promo code must be text' })
  .trim()
  .regex(/^[A-Za-z0-9_-]{3,40}$/, 'Promo code must be 3 to 40 letters, digits, - or _')
  .transform((code) => code.toUpperCase());

/**
 * POST /events/{id}/promo-codes (the event's creator): a code taking `percentOff` percent or
 * `amountOff` dollars off each ticket's price (never below 0), used at most `maxUses` times (one use
 * an order), until `expiresAt`, on the types named (all of them when absent). Pay-what-you-want
 * tickets take no code: their buyer already chooses the amount.
 */
export const ZCreatePromoCodeRequest = z
  .object({
    code: ZPromoCodeText,
    percentOff: wholeNumber('Percent off', 1, 100).optional(),
    amountOff: ZAmount.refine((amount) => amount > 0, 'Amount off must be more than 0').optional(),
    maxUses: wholeNumber('Maximum uses', 1, EVENT_MAX_TICKETS_MAX).optional(),
    expiresAt: z.iso
      .datetime({ offset: true, error: 'Expiry must be a valid date and time' })
      .refine((at) => Date.parse(at) > Date.now(), 'Expiry must be in the future')
      .optional(),
    ticketTypeIds: z
      .array(positiveId('Ticket type id'), { error: 'Ticket types must be a list of ids' })
      .min(1, 'Name at least one ticket type, or leave them out for all')
      .max(TICKET_TYPES_MAX, `An event has at most ${TICKET_TYPES_MAX} ticket types`)
      .optional(),
  })
  .refine(({ percentOff, amountOff }) => (percentOff === undefined) !== (amountOff === undefined), {
    path: ['percentOff'],
    message: 'Give either a percent or an amount off',
  });
export type CreatePromoCodeRequest = z.infer<typeof ZCreatePromoCodeRequest>;

/** A promo code as its creator sees it, with how many orders used it. */
export const ZPromoCode = z.object({
  id: z.number().int(),
  code: z.string(),
  percentOff: z.number().int().nullable(),
  amountOff: z.number().nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  /** ISO 8601, UTC. */
  expiresAt: z.string().nullable(),
  /** null: every type. */
  ticketTypeIds: z.array(z.number().int()).nullable(),
});
export type PromoCode = z.infer<typeof ZPromoCode>;
export const ZPromoCodeList = z.array(ZPromoCode);
