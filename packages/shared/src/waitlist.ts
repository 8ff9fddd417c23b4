import { z } from 'zod';
import { wholeNumber } from './events';
import { EVENT_MAX_TICKETS_MAX } from './limits';

/**
 * The waitlist (DESIGN.md "Ticket options"): a signed-in fan joins a sold-out show's line for a number
 * of tickets. Tickets that come back (a hold that ran out unpaid, a refund, a raised stock) are held
 * for the first fans in line, in the order they joined, as a pending order they are mailed about; a
 * hold they leave unpaid goes to the next fan in line.
 */

/** POST /events/{id}/waitlist: how many tickets the fan waits for (within the event's per-buyer limit). */
export const ZJoinWaitlistRequest = z.object({
  quantity: wholeNumber('Quantity', 1, EVENT_MAX_TICKETS_MAX),
});
export type JoinWaitlistRequest = z.infer<typeof ZJoinWaitlistRequest>;

/**
 * GET, POST /events/{id}/waitlist: the caller's place. `none`: not in line (never, or their turn came
 * and went); `waiting`: in line, `position` 1 being next; `offered`: tickets are held for them until
 * `offer.expiresAt`, to buy with POST /orders/{offer.orderId}/checkout.
 */
export const ZWaitlistPlace = z.object({
  status: z.enum(['none', 'waiting', 'offered']),
  /** How many tickets the caller waits for, or are held for them; null when not in line. */
  quantity: z.number().int().nullable(),
  /** Their place in line (1 is next); null unless waiting. */
  position: z.number().int().nullable(),
  offer: z
    .object({
      orderId: z.number().int(),
      /** ISO 8601, UTC: the hold ends then, and the tickets go to the next fan in line. */
      expiresAt: z.string(),
      /** The type of the tickets held, and what they cost together (dollars). */
      ticketType: z.string(),
      total: z.number(),
    })
    .nullable(),
});
export type WaitlistPlace = z.infer<typeof ZWaitlistPlace>;

/**
 * The query parameter of the event page's address in the mail of a fan's turn (`/events/{id}?held`): a
 * visitor signed out there is asked to sign in to see the tickets held for them.
 */
export const HELD_TICKETS_PARAM = 'held';

/** What the answers say when the caller is not in line. */
export const NOT_IN_LINE: WaitlistPlace = { status: 'none', quantity: null, position: null, offer: null };
