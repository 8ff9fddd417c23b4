import type { Payment } from '../orders/order-lifecycle';

/** What Stripe Checkout needs to take a pending order's payment. */
export interface CheckoutRequest {
  orderId: number;
  eventName: string;
  quantity: number;
  unitPriceCents: number;
  customerEmail: string;
  /** The hold's end: the checkout closes then. */
  expiresAt: Date;
  /** Where the provider sends the fan back after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
}

/**
 * The card payment provider (PAYMENT_PROVIDER=stripe); with `none` there is no such object and orders
 * complete at once. Every call that moves money carries an idempotency key made of our own ids, so a
 * retry after a lost answer never moves it twice.
 */
export interface CardPayments {
  startCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /** Closes a checkout still open. A checkout paid meanwhile cannot close: its payment is the answer. */
  expireCheckout(sessionId: string): Promise<Payment | null>;
  /** Pays a paid order back in full; answers the provider's refund id. */
  refund(order: { id: number; paymentId: string; totalCents: number }): Promise<string>;
  /** Sends a payout to the creator's connected account; answers the provider's transfer id. */
  transfer(payout: { id: number; amountCents: number }, destinationAccountId: string): Promise<string>;
  /** A new Express account for a creator; answers its id. */
  createAccount(creator: { id: number; email: string }): Promise<string>;
  /** The provider's onboarding page for the account. */
  onboardingLink(accountId: string, urls: { returnUrl: string; refreshUrl: string }): Promise<string>;
  /** Whether transfers can reach the account (onboarding finished). */
  payoutsEnabled(accountId: string): Promise<boolean>;
}

/** The provider refused a call for good (not a network fault or an outage): retrying cannot help. */
export class PaymentRefusedError extends Error {
  override name = 'PaymentRefusedError';
}
