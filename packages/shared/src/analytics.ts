import { z } from 'zod';

/**
 * A show's numbers (DESIGN.md "Attendees and analytics"): its sales, how fans came to buy, who watched
 * and what they said, for its creator alone.
 */

/** The pages whose visits are counted: the event page, and the checkout (a checkout started). */
export const VISITED_PAGES = ['event', 'checkout'] as const;
export type VisitedPage = (typeof VISITED_PAGES)[number];

/**
 * POST /events/{id}/views: a visit of one of the event's pages, sent once per visit by the web app;
 * anyone may send it. Counted once a day per visitor (an account, or else an address and browser), and
 * never when the event's creator visits. Answers 204, counted or not.
 */
export const ZPageViewRequest = z.object({
  page: z.enum(VISITED_PAGES, { error: `page must be one of ${VISITED_PAGES.join(', ')}` }),
});
export type PageViewRequest = z.infer<typeof ZPageViewRequest>;

/** Tickets and the money they brought (dollars, two decimals), of completed orders. */
const ZSales = z.object({ tickets: z.number().int(), revenue: z.number() });

/** GET /events/{id}/analytics (the event's creator). */
export const ZEventAnalytics = z.object({
  /** The IANA zone `sales.perDay` counts its days in: the creator's own (their profile's). */
  timeZone: z.string(),
  sales: ZSales.extend({
    /**
     * Each day (`YYYY-MM-DD` in `timeZone`) from the first completed order to the last, oldest first, by
     * the day each order completed; days without a sale in between are there with zeros.
     */
    perDay: z.array(ZSales.extend({ day: z.iso.date() })),
    /** Each ticket type of the event, with what it sold (zeros included). */
    perType: z.array(ZSales.extend({ name: z.string() })),
  }),
  /** How fans came to buy: visitors of the event page, of the checkout, and the orders completed. */
  funnel: z.object({
    pageViews: z.number().int(),
    checkoutsStarted: z.number().int(),
    checkoutsCompleted: z.number().int(),
  }),
  /**
   * Viewers while the show was public: one sample every `sampleIntervalS` (a minute unless the server is
   * set otherwise), each at its interval's start (ISO 8601, UTC), oldest first; the most of them and
   * their mean (one decimal), 0 before any sample.
   */
  viewers: z.object({
    sampleIntervalS: z.number(),
    samples: z.array(z.object({ at: z.iso.datetime(), viewers: z.number().int() })),
    peak: z.number().int(),
    average: z.number(),
  }),
  /** Every message written in the event's chat, deleted ones too (they were written). */
  chatMessages: z.number().int(),
});
export type EventAnalytics = z.infer<typeof ZEventAnalytics>;
