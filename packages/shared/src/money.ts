import { z } from 'zod';

/**
 * The Terms' money rules (spec §9), in one place for the server's ledger and the web's screens.
 * Rates are in basis points (1 % = 100) so every amount is computed in whole cents.
 */
export const PLATFORM_FEE_BPS = 1000;
/** A founding partner's first event (the Founders page's promise). */
export const FOUNDING_PARTNER_FEE_BPS = 0;
export const CANCELLATION_PENALTY_BPS = 500;
export const RESERVE_BPS = 200;
/** Creators with fewer completed events than this have RESERVE_BPS of each event's net held back. */
export const RESERVE_UNTIL_COMPLETED_EVENTS = 3;
export const RESERVE_HOLD_DAYS = 30;
/** Cancelled less than this long before the start, the creator pays the penalty. */
export const PENALTY_NOTICE_HOURS = 24;
/** Spec's "1h 30min": an event ends this long after its start. */
export const EVENT_DURATION_MINUTES = 90;
/** What a creator pays for a dispute (a chargeback) on one of their sales; given back if it is won. */
export const DISPUTE_FEE_CENTS = 1500;
/** A creator's net for an event becomes available this long after the event ends. */
export const PAYOUT_DELAY_HOURS = 24;

/** `bps` of `cents`, rounded to the nearest cent (half up). */
export const shareOf = (cents: number, bps: number): number => Math.round((cents * bps) / 10_000);

/** `$1,234.50`: how every screen and message shows an amount of cents (negative as `-$5.00`). */
export const formatDollars = (cents: number): string =>
  `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const PAYMENT_PROVIDERS = ['none', 'stripe'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

/** GET /payments/config: what checkout tells the fan before anything is charged. */
export const ZPaymentsConfig = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  /** How long tickets are held while the fan pays (provider stripe). */
  holdMinutes: z.number().int(),
});
export type PaymentsConfig = z.infer<typeof ZPaymentsConfig>;

/** GET /earnings: the caller's balance and what each of their events earned, in dollars. */
export const ZEarnings = z.object({
  balance: z.object({
    /** Net of events whose payout date has not come yet. */
    pending: z.number(),
    /** Ready to be paid out; below zero while a cancellation penalty is owed. */
    available: z.number(),
    /** Held back for RESERVE_HOLD_DAYS while the creator has few completed events. */
    reserved: z.number(),
    /** Payouts decided and not yet transferred. */
    due: z.number(),
    /** What transfers to the creator's payment account exist for (in transit or paid). */
    paidOut: z.number(),
  }),
  events: z.array(
    z.object({
      eventId: z.number().int(),
      name: z.string(),
      /** ISO 8601, UTC. */
      date: z.string(),
      cancelled: z.boolean(),
      ticketsSold: z.number().int(),
      gross: z.number(),
      platformFee: z.number(),
      processorFee: z.number(),
      refunded: z.number(),
      penalty: z.number(),
      net: z.number(),
    }),
  ),
});
export type Earnings = z.infer<typeof ZEarnings>;
export type EventEarnings = Earnings['events'][number];

/**
 * due: decided, not yet transferred (waiting for the platform's funds, or with no provider for the
 * Stagedoor team to pay); in_transit: transferred to the creator's Stripe account; paid: Stripe paid it
 * to their bank; failed: Stripe refused it for good, the money went back to the available balance.
 */
export const PAYOUT_STATUSES = ['due', 'in_transit', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** GET /payouts: newest first. */
export const ZPayout = z.object({
  id: z.number().int(),
  amount: z.number(),
  status: z.enum(PAYOUT_STATUSES),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  paidAt: z.string().nullable(),
});
export type Payout = z.infer<typeof ZPayout>;
export const ZPayoutList = z.array(ZPayout);

/**
 * Where Stagedoor (a US platform) can pay creators through Stripe Connect Express: the US, and the
 * countries Stripe's cross-border payouts reach under its recipient service agreement. ISO 3166-1 codes.
 */
export const PAYOUT_COUNTRIES = [
  'US',
  'AT',
  'AU',
  'BE',
  'BG',
  'CA',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'NO',
  'NZ',
  'PL',
  'PT',
  'RO',
  'SE',
  'SG',
  'SI',
  'SK',
] as const;
export type PayoutCountry = (typeof PAYOUT_COUNTRIES)[number];

/** POST /payments/account/onboarding: the country the creator is paid in (asked once, at the start). */
export const ZOnboardingRequest = z.object({
  country: z.enum(PAYOUT_COUNTRIES, { error: 'Choose the country where you get paid' }),
});
export type OnboardingRequest = z.infer<typeof ZOnboardingRequest>;

/** GET /payments/account: where the creator's payouts go. */
export const ZPayoutAccount = z.object({
  provider: z.enum(PAYMENT_PROVIDERS),
  /** Stripe: an Express account exists for the creator. */
  connected: z.boolean(),
  /** Stripe: onboarding is finished and transfers can reach the account. */
  payoutsEnabled: z.boolean(),
  /** Stripe: the account's country; null before it exists. */
  country: z.string().nullable(),
  /**
   * Stripe: what it still needs from the creator before it pays them (its `requirements`: the fields
   * due now or past due, as Stripe names them, `external_account`, `individual.dob.day`…).
   */
  requirements: z.array(z.string()),
});
export type PayoutAccount = z.infer<typeof ZPayoutAccount>;

/**
 * POST /payments/account/onboarding: Stripe's onboarding page for the creator's Express account;
 * POST /payments/account/dashboard: a sign-in link to their Express dashboard (payouts, bank, tax forms).
 */
export const ZOnboardingLink = z.object({ url: z.string() });

/** POST /events/{id}/cancel: what the cancellation did. */
export const ZCancellation = z.object({
  refundedOrders: z.number().int(),
  refunded: z.number(),
  penalty: z.number(),
});
export type Cancellation = z.infer<typeof ZCancellation>;
