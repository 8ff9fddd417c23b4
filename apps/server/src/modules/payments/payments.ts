import type { PayoutCountry } from '@stagedoor/shared/money';
import type { RefundStatus } from '@stagedoor/shared/orders';

/** What the payment provider reports about a payment, in the platform's currency (USD cents). */
export interface Payment {
  paymentId: string;
  /** The charge it made: what the provider's balance lists (the money report matches them). */
  chargeId: string;
  /** What it charged. */
  amountCents: number;
  /** What it kept of it. */
  processorFeeCents: number;
}

/** A refund as the provider reports it: sent (succeeded), on its way (pending), or failed for good. */
export interface ProviderRefund {
  id: string;
  status: RefundStatus;
  /** Why it failed, as the provider says; null unless failed. */
  failure: string | null;
}

/**
 * A dispute (chargeback) as the provider reports it: whether it took the money yet, how it ended, and
 * the fee it withdrew, and gave back when the dispute was won.
 */
export interface ProviderDispute {
  id: string;
  paymentId: string;
  fundsWithdrawn: boolean;
  outcome: 'open' | 'won' | 'lost';
  withdrawnFeeCents: number;
  reinstatedFeeCents: number;
}

/** A payment to pay back in full: its key names what is refunded (`order-7`, `payment-pi_…`). */
export interface RefundRequest {
  key: string;
  paymentId: string;
  amountCents: number;
  metadata: Record<string, string>;
}

/** What Stripe Checkout needs to take a pending order's payment. */
export interface CheckoutRequest {
  orderId: number;
  eventName: string;
  quantity: number;
  unitPriceCents: number;
  customerEmail: string;
  /** When the order was placed, and the hold's end: the checkout closes then. */
  placedAt: Date;
  expiresAt: Date;
  /** Where the provider sends the fan back after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
}

/**
 * A checkout's end: unpaid (closed, expired, or still open), paid, or completed with a bank payment
 * (a debit) still clearing, which the provider confirms or fails days later.
 */
export type CheckoutOutcome =
  { closed: 'unpaid' } | { closed: 'paid'; payment: Payment } | { closed: 'processing'; paymentId: string };

/** A transfer to a creator's connected account, as the provider knows it. */
export interface Transfer {
  transferId: string;
  /** The payment it made on the connected account: what that account's payouts to its bank list. */
  destinationPaymentId: string;
}

/** A payout of ours (`payouts` row) as the provider is asked to send it. */
export interface PayoutRequest {
  id: number;
  amountCents: number;
  createdAt: Date;
}

/**
 * The card payment provider (PAYMENT_PROVIDER=stripe); with `none` there is no such object and orders
 * complete at once. Every call that moves money carries an idempotency key made of this deployment's
 * namespace and our own ids, so a retry after a lost answer never moves it twice, and two deployments
 * sharing one Stripe account (staging and production) never answer each other's keys.
 */
export interface CardPayments {
  startCheckout(request: CheckoutRequest): Promise<{ sessionId: string; url: string }>;
  /**
   * Closes a checkout still open. A checkout completed meanwhile cannot close: what became of it (paid,
   * or a bank payment clearing) is the answer.
   */
  closeCheckout(sessionId: string): Promise<CheckoutOutcome>;
  /** What became of a checkout (the fan's return from it: open ones answer `unpaid`). */
  checkoutOutcome(sessionId: string): Promise<CheckoutOutcome>;
  /** Pays a payment back in full; answers the provider's refund. */
  refund(request: RefundRequest): Promise<ProviderRefund>;
  /** A refund as it stands now (a webhook's copy may be older than another one already applied). */
  refundById(refundId: string): Promise<ProviderRefund>;
  /** The refunds of a payment, newest first: what its provider's dashboard did. */
  refundsOf(paymentId: string): Promise<ProviderRefund[]>;
  /** A dispute as it stands now. */
  disputeById(disputeId: string): Promise<ProviderDispute>;
  /** What the platform's account may transfer now: its available balance, in cents. */
  availableBalance(): Promise<number>;
  /**
   * Sends a payout to the creator's connected account. `attempt` numbers the tries: a try refused or
   * unanswered is only made again, under a new idempotency key, after findTransfer found no transfer.
   */
  transfer(payout: PayoutRequest, destinationAccountId: string, attempt: number): Promise<Transfer>;
  /** The transfer an earlier try of this payout made, if any (looked up by its metadata). */
  findTransfer(payout: PayoutRequest, destinationAccountId: string): Promise<Transfer | null>;
  /** The transfers' payments that a connected account's payout to its bank paid out. */
  paidOutPayments(accountId: string, bankPayoutId: string): Promise<string[]>;
  /** A new Express account for a creator paid in `country`; answers its id. */
  createAccount(creator: { id: number; email: string }, country: PayoutCountry): Promise<string>;
  /** The provider's onboarding page for the account. */
  onboardingLink(accountId: string, urls: { returnUrl: string; refreshUrl: string }): Promise<string>;
  /** The account as it stands now: whether transfers reach it, and what the provider still needs. */
  connectedAccount(accountId: string): Promise<ConnectedAccount>;
  /** A one-time sign-in link to the account's Express dashboard; refused before onboarding is done. */
  dashboardLink(accountId: string): Promise<string>;
  /** Every movement of the platform's balance since `since`, newest first. */
  balanceTransactions(since: Date): AsyncIterable<ProviderTransaction>;
}

/**
 * One movement of the platform's balance at the provider, as its reports list them: a charge, a refund
 * (or a refund's failure, giving the money back), a transfer to a creator, a dispute's withdrawal or
 * reinstatement; `source` names the object (charge, refund, transfer, dispute) it comes from.
 */
export interface ProviderTransaction {
  id: string;
  type: string;
  source: string | null;
  amountCents: number;
  feeCents: number;
  created: Date;
}

/** A creator's connected account as the provider reports it. */
export interface ConnectedAccount {
  payoutsEnabled: boolean;
  country: string;
  /** Whether the creator went through onboarding (the dashboard opens only then). */
  detailsSubmitted: boolean;
  /** What the provider needs before it pays them, due now or past due. */
  requirements: string[];
}

/** The provider refused a call for good (not a network fault or an outage): retrying cannot help. */
export class PaymentRefusedError extends Error {
  override name = 'PaymentRefusedError';
}
