import type { Order } from '@stagedoor/shared/orders';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { expect } from 'vitest';
import { accounts, events, ledgerEntries, ledgerTransactions, orders } from '../src/db/schema';
import type { CardPayments } from '../src/modules/payments/payments';
import {
  api,
  authHeader,
  buyTickets,
  createCreator,
  createEvent,
  createUser,
  type TestAccount,
} from './factories';
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in';
import { createTestApp } from './test-app';

const DAY_MS = 24 * 3_600_000;

/** A server's environment to take payments through the stand-in. */
export function stripeEnvOf(standIn: Pick<StripeStandIn, 'secretKey' | 'webhookSecret' | 'url'>) {
  return {
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: standIn.secretKey,
    STRIPE_WEBHOOK_SECRET: standIn.webhookSecret,
    STRIPE_API_URL: standIn.url,
    // The tests run the settlement steps they need themselves; a timer must not run them mid-test.
    SETTLEMENT_INTERVAL_S: '2147483',
  };
}

/**
 * A server with PAYMENT_PROVIDER=stripe talking to its own Stripe stand-in, and what its tests do with
 * both: fans checking out and paying, creators onboarding, events ending, signed webhooks delivered. A
 * test file that moves the stand-in's clock (funds becoming available) has a world of its own.
 */
export async function stripeWorld(env: Record<string, string> = {}) {
  const standIn = await startStripeStandIn();
  const app = await createTestApp({ ...stripeEnvOf(standIn), ...env });

  function payments(): CardPayments {
    if (!app.deps.payments) throw new Error('the app was built without a payment provider');
    return app.deps.payments;
  }

  async function storedOrder(id: number) {
    const [order] = await app.deps.db.select().from(orders).where(eq(orders.id, id));
    if (!order) throw new Error(`order ${id} not found`);
    return order;
  }

  /** A fan's pending order and the Checkout Session it opened on the stand-in. */
  async function checkout(buyer: TestAccount, eventId: number, quantity: number) {
    const response = await buyTickets(app, buyer, eventId, quantity);
    expect(response.statusCode, response.body).toBe(201);
    const order = response.json<Order>();
    expect(order.status).toBe('pending');
    const { checkoutSessionId } = await storedOrder(order.id);
    if (!checkoutSessionId) throw new Error(`order ${order.id} has no checkout session`);
    return { order, sessionId: checkoutSessionId };
  }

  /** Delivers a signed event that the app must accept. */
  async function deliverOk(event: Stripe.Event) {
    const response = await standIn.deliver(app, event);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ received: true });
  }

  /** A creator who opened Stripe onboarding through the app: their Express account's id. */
  async function connectStripe(creator: TestAccount, country = 'US'): Promise<string> {
    const onboarding = await api(app, {
      method: 'POST',
      url: '/api/payments/account/onboarding',
      headers: authHeader(creator.token),
      payload: { country },
    });
    expect(onboarding.statusCode, onboarding.body).toBe(200);
    expect(onboarding.json<{ url: string }>().url).toMatch(/^https:\/\/connect\.stripe\.com\//);
    const [row] = await app.deps.db.select().from(accounts).where(eq(accounts.id, creator.user.id));
    return row?.stripeAccountId ?? '';
  }

  /** A creator whose Express account finished onboarding, as Stripe's account.updated tells the app. */
  async function onboardedCreator(): Promise<{ creator: TestAccount; accountId: string }> {
    const creator = await createCreator(app);
    const accountId = await connectStripe(creator);
    await deliverOk(standIn.completeOnboarding(accountId));
    return { creator, accountId };
  }

  /** A paid order of `quantity` tickets at `price` for a new event of the creator. */
  async function paidOrder(creator: TestAccount, price: number, quantity: number) {
    const event = await createEvent(app, creator, { price, maxTickets: 10 });
    const buyer = await createUser(app);
    const paid = await checkout(buyer, event.id, quantity);
    await deliverOk(standIn.pay(paid.sessionId));
    return { event, buyer, order: await storedOrder(paid.order.id), sessionId: paid.sessionId };
  }

  /** Moves the event three days back: it took place, and its earnings are due for release. */
  async function endEvent(eventId: number): Promise<void> {
    await app.deps.db
      .update(events)
      .set({ date: new Date(Date.now() - 3 * DAY_MS) })
      .where(eq(events.id, eventId));
  }

  /** The ledger movements of an order, each as `account:line → cents`, each checked to balance. */
  async function movementsOf(orderId: number): Promise<Record<string, Record<string, number>>> {
    const rows = await app.deps.db
      .select({
        key: ledgerTransactions.key,
        account: ledgerEntries.account,
        line: ledgerEntries.line,
        amount: ledgerEntries.amountCents,
      })
      .from(ledgerTransactions)
      .innerJoin(ledgerEntries, eq(ledgerEntries.transactionId, ledgerTransactions.id))
      .where(eq(ledgerTransactions.orderId, orderId));
    const movements: Record<string, Record<string, number>> = {};
    for (const row of rows) {
      const entries = (movements[row.key] ??= {});
      entries[`${row.account}:${row.line}`] = (entries[`${row.account}:${row.line}`] ?? 0) + row.amount;
    }
    for (const [key, entries] of Object.entries(movements)) {
      expect(
        Object.values(entries).reduce((sum, amount) => sum + amount, 0),
        `${key} balances`,
      ).toBe(0);
    }
    return movements;
  }

  return {
    standIn,
    app,
    payments,
    storedOrder,
    checkout,
    deliverOk,
    connectStripe,
    onboardedCreator,
    paidOrder,
    endEvent,
    movementsOf,
    async close() {
      await app.close();
      await standIn.close();
    },
  };
}

/** Stripe's standard schedule: card funds become available two days after the charge. */
export const FUNDS_AVAILABLE_AFTER_S = 2 * 24 * 3600 + 60;

/** An idempotency key as a deployment sends it: its own name (32 hex digits), then ours. */
export const deploymentKey = (name: string) => expect.stringMatching(new RegExp(`^[0-9a-f]{32}:${name}$`));
