import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import Stripe from 'stripe';
import type { App } from '../src/app';
import { api } from './factories';

/**
 * Stripe's API as far as Stagedoor uses it, on 127.0.0.1: the official SDK talks to it over HTTP, with
 * Stripe's form-encoded requests, JSON objects and error bodies, and Idempotency-Key replays. It is as
 * strict as Stripe: card funds wait two days before the balance can spend them, refunds settle later,
 * disputes take money back with a fee, idempotency keys are forgotten after a day, and Stripe's
 * refusals come with Stripe's messages and codes. Tests play the fan, the operator and Stripe's side
 * (pay, refund from the Dashboard, dispute, onboard, pay out, let time pass) and deliver signed webhook
 * events to the app.
 */

type StripeObject = { id: string; object: string } & Record<string, unknown>;

interface StripeCall {
  method: string;
  /** Without the query string. */
  path: string;
  idempotencyKey: string | null;
  /** The Stripe-Account header: the connected account the call acts on, null for the platform. */
  account: string | null;
  /** The form body of a POST, the query of a GET, decoded into Stripe's nested shape. */
  params: Record<string, unknown>;
  status: number;
  /** Answered from an earlier call with the same Idempotency-Key, without any new effect. */
  replayed: boolean;
}

interface StripeErrorBody {
  status: number;
  type: string;
  code?: string;
  message: string;
  param?: string;
}

export interface DeliveryOptions {
  /** Signs with this secret instead of the stand-in's webhook secret. */
  secret?: string;
  /** Unix seconds the signature claims it was made at. */
  timestamp?: number;
  /** Sends this body while signing the event's own. */
  tamperedBody?: string;
  /** Leaves the Stripe-Signature header out. */
  unsigned?: boolean;
}

export interface StripeStandIn {
  url: string;
  secretKey: string;
  webhookSecret: string;
  /** Every request, in order. */
  calls: StripeCall[];
  callsTo(method: string, path: string): StripeCall[];
  /** Any object by id, as Stripe would answer it (a copy). */
  get(id: string): StripeObject;
  /** The next request to `METHOD /v1/path` fails with this error (an api_error 500 by default). */
  failNext(route: string, error?: Partial<StripeErrorBody>): void;
  /** The stand-in's clock, in Unix seconds: real time plus every advance. */
  now(): number;
  /** Time passes: pending funds become available, open sessions expire, idempotency keys are forgotten. */
  advance(seconds: number): void;
  /**
   * The fan pays a session: a PaymentIntent, its charge and its balance transaction with Stripe's fee
   * (2.9 % + 30¢ unless given), pending for two days. `processing`: a bank debit, the session completes
   * unpaid and no money arrives until settleAsyncPayment. Answers the checkout.session.completed event.
   */
  pay(sessionId: string, options?: { fee?: number; processing?: boolean }): Stripe.Event;
  /** A processing payment clears: answers checkout.session.async_payment_succeeded. */
  settleAsyncPayment(sessionId: string): Stripe.Event;
  /** The session reaches its expires_at unpaid: answers checkout.session.expired. */
  expire(sessionId: string): Stripe.Event;
  /** A session opened by someone else than the app (a Payment Link, another integration): its id. */
  openSession(options: {
    amountCents: number;
    currency?: string;
    clientReferenceId?: string;
    metadata?: Record<string, string>;
  }): string;
  /** Where Stripe sends the fan after paying: the success_url with {CHECKOUT_SESSION_ID} filled in. */
  successUrlOf(sessionId: string): string;
  /**
   * Pending refunds that the available balance covers succeed, taking their money from it: answers
   * refund.updated and charge.refund.updated for each (and refund.updated for one left waiting on funds).
   */
  settleRefunds(): Stripe.Event[];
  /** The card cannot take a refund back: answers refund.failed, refund.updated, charge.refund.updated. */
  failRefund(refundId: string, failureReason?: string): Stripe.Event[];
  /** The operator refunds in Stripe's Dashboard (no metadata, no idempotency key): answers charge.refunded. */
  dashboardRefund(paymentIntentId: string, amountCents?: number): Stripe.Event;
  /** The cardholder disputes the payment: its amount and a $15.00 fee leave the balance. Answers charge.dispute.created. */
  dispute(paymentIntentId: string, reason?: string): Stripe.Event;
  /** The bank decides: a won dispute gives amount and fee back. Answers charge.dispute.closed. */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Stripe.Event;
  /** The creator finishes Express onboarding: answers account.updated. */
  completeOnboarding(accountId: string): Stripe.Event;
  /** Stripe needs more information: payouts and transfers stop until it has it. Answers account.updated. */
  requireMore(accountId: string, fields: string[]): Stripe.Event;
  /** Stripe pays a connected account's available balance to its bank: answers payout.paid, or payout.failed. */
  payOutConnected(accountId: string, options?: { fail?: boolean }): Stripe.Event;
  /** Every event Stripe would have sent and no test has taken yet, in order. */
  sent: readonly Stripe.Event[];
  /** Takes the events sent (only those of `type` if given) off the queue, in order. */
  takeEvents(type?: string): Stripe.Event[];
  /** A new event (its own evt_ id) about a copy of `object`, as Stripe renders it; not queued. */
  event(type: string, object: StripeObject, options?: { livemode?: boolean; account?: string }): Stripe.Event;
  /** POSTs an event to the app's webhook route with Stripe's signature header (or a forged one). */
  deliver(app: App, event: Stripe.Event, options?: DeliveryOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Stripe's card fee in the US: 2.9 % + 30¢. */
export const stripeFee = (amountCents: number) => Math.round(amountCents * 0.029) + 30;

const WEBHOOK_PATH = '/api/payments/stripe/webhook';

const MINUTE_S = 60;
const HOUR_S = 60 * MINUTE_S;
const DAY_S = 24 * HOUR_S;

/** Card funds of a US account become available two days after the payment (the standard schedule). */
const CARD_PENDING_S = 2 * DAY_S;
/** Transfers to a `recipient` account take a day more to become available. */
const RECIPIENT_DELAY_S = DAY_S;
/** Stripe prunes an idempotency key once it is 24 hours old; a reuse after that is a new request. */
const IDEMPOTENCY_WINDOW_S = 24 * HOUR_S;
/** What a dispute costs in the US, given back when it is won. */
const DISPUTE_FEE = 1500;

/** Stripe's minimum charge per currency, and how its refusal writes it. */
const MINIMUM_CHARGES: Record<string, { cents: number; label: string }> = {
  usd: { cents: 50, label: '$0.50 usd' },
  eur: { cents: 50, label: '€0.50 eur' },
  gbp: { cents: 30, label: '£0.30 gbp' },
};

/**
 * Where a US platform may send funds to an account under the `full` service agreement: the US, Canada,
 * the UK, the EEA and Switzerland. Anywhere else only the `recipient` agreement takes transfers.
 */
const FULL_AGREEMENT_COUNTRIES = new Set(
  'US CA GB CH AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IS IT LI LT LU LV MT NL NO PL PT RO SE SI SK'.split(
    ' ',
  ),
);

/** What Express asks a new US individual before it enables transfers and payouts. */
const EXPRESS_ONBOARDING = [
  'business_profile.mcc',
  'business_profile.url',
  'business_type',
  'external_account',
  'individual.address.city',
  'individual.address.line1',
  'individual.address.postal_code',
  'individual.address.state',
  'individual.dob.day',
  'individual.dob.month',
  'individual.dob.year',
  'individual.email',
  'individual.first_name',
  'individual.last_name',
  'individual.phone',
  'individual.ssn_last_4',
  'tos_acceptance.date',
  'tos_acceptance.ip',
];

/** The controller Stripe gives an account created with the legacy `type`. */
const LEGACY_CONTROLLERS: Record<string, Record<string, unknown>> = {
  express: {
    fees: { payer: 'application_express' },
    losses: { payments: 'application' },
    requirement_collection: 'stripe',
    stripe_dashboard: { type: 'express' },
  },
  standard: {
    fees: { payer: 'account' },
    losses: { payments: 'stripe' },
    requirement_collection: 'stripe',
    stripe_dashboard: { type: 'full' },
  },
  custom: {
    fees: { payer: 'application_custom' },
    losses: { payments: 'application' },
    requirement_collection: 'application',
    stripe_dashboard: { type: 'none' },
  },
};
const TYPE_OF_DASHBOARD: Record<string, string> = { express: 'express', full: 'standard', none: 'custom' };

class StripeRequestError extends Error {
  constructor(
    readonly body: StripeErrorBody,
    /** Decided by the state of the account, so saved for the idempotency key like a success. */
    readonly kept: boolean,
  ) {
    super(body.message);
  }
}

/** Parameters that fail validation: Stripe never started the request, so no result is saved. */
const invalid = (message: string, extra: Partial<StripeErrorBody> = {}) =>
  new StripeRequestError({ status: 400, type: 'invalid_request_error', message, ...extra }, false);

/** A refusal decided by the state of the money: saved and replayed for the idempotency key. */
const refused = (message: string, extra: Partial<StripeErrorBody> = {}) =>
  new StripeRequestError({ status: 400, type: 'invalid_request_error', message, ...extra }, true);

const missing = (kind: string, id: string, param?: string) =>
  new StripeRequestError(
    {
      status: 404,
      type: 'invalid_request_error',
      code: 'resource_missing',
      message: `No such ${kind}: '${id}'`,
      ...(param && { param }),
    },
    false,
  );

interface EventRequest {
  id: string | null;
  idempotency_key: string | null;
}

const NO_REQUEST: EventRequest = { id: null, idempotency_key: null };

interface TransactionInput {
  /** The connected account whose balance it is, null for the platform's. */
  account: string | null;
  type: string;
  reportingCategory: string;
  amount: number;
  /** Stripe's fee and how its fee_details names it. */
  fee?: { amount: number; description: string };
  source: string;
  description?: string;
  /** Now unless later. */
  availableOn?: number;
}

export async function startStripeStandIn({
  latencyMs = 0,
}: { latencyMs?: number } = {}): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const objects = new Map<string, StripeObject>();
  /** The connected account an object belongs to; absent for the platform's own. */
  const owners = new Map<string, string>();
  const calls: StripeCall[] = [];
  const sent: Stripe.Event[] = [];
  const failures = new Map<string, StripeErrorBody>();
  const idempotent = new Map<string, { request: string; status: number; body: unknown; savedAt: number }>();
  /** What a session's PaymentIntent will carry (payment_intent_data), by session id. */
  const intentData = new Map<string, { metadata: unknown; transferGroup: string | null }>();
  /** The fee of a charge still processing, by charge id: its balance transaction comes when it clears. */
  const clearingFees = new Map<string, number>();
  /** The payout that paid each balance transaction out, by transaction id. */
  const payoutOf = new Map<string, string>();
  /** The API request behind the changes being made, which the events they send name. */
  let currentRequest = NO_REQUEST;
  let clockOffsetS = 0;

  const nowS = () => Math.floor(Date.now() / 1000) + clockOffsetS;
  const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
  const store = <T extends StripeObject>(object: T, account: string | null = null): T => {
    objects.set(object.id, object);
    if (account) owners.set(object.id, account);
    return object;
  };
  const ownerOf = (id: string) => owners.get(id) ?? null;
  /** An object of the account that asks (the platform unless Stripe-Account names another). */
  const find = (id: string, kind: string, account: string | null = null, param?: string): StripeObject => {
    const object = objects.get(id);
    if (!object || object.object !== kind || ownerOf(id) !== account) throw missing(kind, id, param);
    return object;
  };
  const all = (kind: string, account: string | null = null) =>
    [...objects.values()].filter((object) => object.object === kind && ownerOf(object.id) === account);
  const copy = (object: StripeObject): StripeObject => structuredClone(object);

  /** Replaces ids on the `expand` paths by the objects they name, as Stripe does. */
  const expanded = (object: StripeObject, paths: string[]): StripeObject => {
    const result = copy(object);
    for (const path of paths) {
      let node: Record<string, unknown> = result;
      for (const field of path.split('.')) {
        const value = node[field];
        const target = typeof value === 'string' ? objects.get(value) : undefined;
        if (target) node[field] = copy(target);
        const next = node[field];
        if (!next || typeof next !== 'object') break;
        node = next as Record<string, unknown>;
      }
    }
    return result;
  };

  const makeEvent = (
    type: string,
    object: StripeObject,
    options: { livemode?: boolean; account?: string | null; request?: EventRequest } = {},
  ): Stripe.Event =>
    ({
      id: newId('evt'),
      object: 'event',
      ...(options.account && { account: options.account }),
      api_version: Stripe.API_VERSION,
      created: nowS(),
      data: { object: copy(object) },
      livemode: options.livemode ?? false,
      pending_webhooks: 1,
      request: options.request ?? NO_REQUEST,
      type,
    }) as unknown as Stripe.Event;

  /** The event Stripe sends about a change, queued for the test to take. */
  const emit = (type: string, object: StripeObject, request = currentRequest): Stripe.Event => {
    const account = object.object === 'account' ? object.id : ownerOf(object.id);
    const stripeEvent = makeEvent(type, object, { account, request });
    sent.push(stripeEvent);
    return stripeEvent;
  };

  // The balance.

  const addTransaction = (input: TransactionInput): StripeObject => {
    const created = nowS();
    const availableOn = input.availableOn ?? created;
    const fee = input.fee?.amount ?? 0;
    return store(
      {
        id: newId('txn'),
        object: 'balance_transaction',
        amount: input.amount,
        available_on: availableOn,
        balance_type: 'payments',
        created,
        currency: 'usd',
        description: input.description ?? null,
        exchange_rate: null,
        fee,
        fee_details: input.fee
          ? [
              {
                amount: fee,
                application: null,
                currency: 'usd',
                description: input.fee.description,
                type: 'stripe_fee',
              },
            ]
          : [],
        net: input.amount - fee,
        reporting_category: input.reportingCategory,
        source: input.source,
        status: availableOn <= created ? 'available' : 'pending',
        type: input.type,
      },
      input.account,
    );
  };

  /** The account's balance: the net of its transactions, by status. */
  const balanceOf = (account: string | null) => {
    const sums = { available: 0, pending: 0 };
    for (const transaction of all('balance_transaction', account)) {
      sums[transaction.status === 'available' ? 'available' : 'pending'] += Number(transaction.net);
    }
    return sums;
  };

  /** Catches up with the clock: funds whose day came become available, open sessions past their end expire. */
  const tick = () => {
    for (const transaction of all('balance_transaction')) ripen(transaction);
    for (const account of all('account')) {
      for (const transaction of all('balance_transaction', account.id)) ripen(transaction);
    }
    for (const session of all('checkout.session')) {
      if (session.status === 'open' && Number(session.expires_at) <= nowS()) closeSession(session);
    }
  };
  const ripen = (transaction: StripeObject) => {
    if (transaction.status === 'pending' && Number(transaction.available_on) <= nowS()) {
      transaction.status = 'available';
    }
  };

  // Lists.

  /** One page of Stripe's list, newest first, from the objects oldest first. */
  const page = (items: StripeObject[], params: Params, url: string, kind: string) => {
    const newest = [...items].reverse();
    const limitText = text(params, 'limit') ?? '10';
    const limit = Number(limitText);
    if (!Number.isInteger(limit)) throw invalid(`Invalid integer: ${limitText}`, { param: 'limit' });
    if (limit < 1) throw invalid('This value must be greater than or equal to 1.', { param: 'limit' });
    if (limit > 100) throw invalid('This value must be less than or equal to 100.', { param: 'limit' });
    const position = (param: string, id: string) => {
      const index = newest.findIndex((object) => object.id === id);
      if (index < 0) throw missing(kind, id, param);
      return index;
    };
    const before = text(params, 'ending_before');
    const after = text(params, 'starting_after');
    let start = after ? position('starting_after', after) + 1 : 0;
    let end = start + limit;
    let hasMore = end < newest.length;
    if (before) {
      // Backwards: the page just before the cursor, has_more when there are newer ones still.
      end = position('ending_before', before);
      start = Math.max(0, end - limit);
      hasMore = start > 0;
    }
    return { object: 'list', data: newest.slice(start, end).map(copy), has_more: hasMore, url };
  };

  /** Objects of the account whose `fields` equal the params given, within the `created` range. */
  const listOf = (kind: string, account: string | null, params: Params, fields: string[], url: string) =>
    page(
      all(kind, account).filter(
        (object) =>
          createdWithin(object, params) &&
          fields.every((field) => text(params, field) === undefined || object[field] === text(params, field)),
      ),
      params,
      url,
      kind,
    );

  /** Method, path (its one group an id) and what answers it, with the Stripe-Account header's account. */
  const routes: Array<[string, RegExp, (params: Params, id: string, account: string | null) => unknown]> = [
    ['POST', /^\/v1\/checkout\/sessions$/, (params) => createSession(params)],
    ['GET', /^\/v1\/checkout\/sessions\/([^/]+)$/, retrieve('checkout.session')],
    [
      'POST',
      /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/,
      (_params, id) => {
        const session = find(id, 'checkout.session');
        if (session.status !== 'open') {
          throw refused(
            `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
          );
        }
        closeSession(session);
        return copy(session);
      },
    ],
    ['GET', /^\/v1\/payment_intents\/([^/]+)$/, retrieve('payment_intent')],
    ['GET', /^\/v1\/charges\/([^/]+)$/, retrieve('charge')],
    ['POST', /^\/v1\/refunds$/, (params) => copy(createRefund(params).refund)],
    [
      'GET',
      /^\/v1\/refunds$/,
      (params) => listOf('refund', null, params, ['payment_intent', 'charge'], '/v1/refunds'),
    ],
    ['GET', /^\/v1\/refunds\/([^/]+)$/, retrieve('refund')],
    ['GET', /^\/v1\/disputes\/([^/]+)$/, retrieve('dispute')],
    ['POST', /^\/v1\/transfers$/, (params) => copy(createTransfer(params))],
    [
      'GET',
      /^\/v1\/transfers$/,
      (params) => listOf('transfer', null, params, ['destination', 'transfer_group'], '/v1/transfers'),
    ],
    ['GET', /^\/v1\/transfers\/([^/]+)$/, retrieve('transfer')],
    ['GET', /^\/v1\/balance$/, (_params, _id, account) => balanceObject(account)],
    ['GET', /^\/v1\/balance_transactions$/, (params, _id, account) => listTransactions(params, account)],
    ['GET', /^\/v1\/balance_transactions\/([^/]+)$/, retrieve('balance_transaction')],
    ['GET', /^\/v1\/payouts\/([^/]+)$/, retrieve('payout')],
    ['POST', /^\/v1\/accounts$/, (params) => copy(createAccount(params))],
    ['GET', /^\/v1\/accounts\/([^/]+)$/, retrieve('account')],
    ['POST', /^\/v1\/accounts\/([^/]+)\/login_links$/, (_params, id) => createLoginLink(id)],
    ['POST', /^\/v1\/account_links$/, (params) => createAccountLink(params)],
  ];

  function retrieve(kind: string) {
    return (params: Params, id: string, account: string | null) =>
      expanded(find(id, kind, account), expandOf(params));
  }

  // Checkout.

  function createSession(params: Params): StripeObject {
    if (text(params, 'mode') !== 'payment')
      throw invalid('Only mode=payment is supported here', { param: 'mode' });
    const lineItems = at(params, 'line_items');
    const items = Array.isArray(lineItems) ? lineItems : [];
    let amount = 0;
    for (const [index, item] of items.entries()) {
      const quantity = Number(text(item, 'quantity'));
      const unitAmount = Number(text(item, 'price_data', 'unit_amount'));
      if (
        !(quantity >= 1) ||
        !(unitAmount >= 0) ||
        !text(item, 'price_data', 'product_data', 'name') ||
        text(item, 'price_data', 'currency') !== text(items[0], 'price_data', 'currency')
      ) {
        throw invalid(
          `line_items[${index}] needs quantity and price_data (currency, unit_amount, product_data[name])`,
          { param: 'line_items' },
        );
      }
      amount += quantity * unitAmount;
    }
    const currency = text(items[0], 'price_data', 'currency');
    if (!currency) throw invalid('Missing required param: line_items.', { param: 'line_items' });
    const expiresAt = Number(text(params, 'expires_at') ?? nowS() + DAY_S);
    if (expiresAt - nowS() < 30 * MINUTE_S) {
      throw invalid(
        'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
        { param: 'expires_at' },
      );
    }
    if (expiresAt - nowS() > DAY_S) {
      throw invalid('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', {
        param: 'expires_at',
      });
    }
    const minimum = MINIMUM_CHARGES[currency];
    if (minimum && amount < minimum.cents) {
      throw invalid(`The Checkout Session's total amount due must add up to at least ${minimum.label}`, {
        code: 'amount_too_small',
      });
    }
    const session = newSession({
      amount,
      currency,
      expiresAt,
      clientReferenceId: text(params, 'client_reference_id') ?? null,
      metadata: at(params, 'metadata') ?? {},
    });
    Object.assign(session, {
      customer_email: text(params, 'customer_email') ?? null,
      success_url: text(params, 'success_url') ?? null,
      cancel_url: text(params, 'cancel_url') ?? null,
    });
    intentData.set(session.id, {
      metadata: at(params, 'payment_intent_data', 'metadata') ?? {},
      transferGroup: text(params, 'payment_intent_data', 'transfer_group') ?? null,
    });
    return copy(session);
  }

  function newSession(fields: {
    amount: number;
    currency: string;
    expiresAt: number;
    clientReferenceId: string | null;
    metadata: unknown;
  }): StripeObject {
    const id = newId('cs_test');
    return store({
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: null,
      amount_subtotal: fields.amount,
      amount_total: fields.amount,
      currency: fields.currency,
      customer_email: null,
      client_reference_id: fields.clientReferenceId,
      metadata: fields.metadata,
      expires_at: fields.expiresAt,
      success_url: null,
      cancel_url: null,
      url: `https://checkout.stripe.com/c/pay/${id}`,
      created: nowS(),
      livemode: false,
    });
  }

  function closeSession(session: StripeObject): Stripe.Event {
    Object.assign(session, { status: 'expired', url: null });
    return emit('checkout.session.expired', session);
  }

  const openSessionOf = (sessionId: string) => {
    const session = find(sessionId, 'checkout.session');
    if (session.status !== 'open') {
      throw new Error(`session ${sessionId} is ${String(session.status)}, not open`);
    }
    return session;
  };

  const chargeOfSession = (sessionId: string) => {
    const intent = find(String(find(sessionId, 'checkout.session').payment_intent), 'payment_intent');
    return { intent, charge: find(String(intent.latest_charge), 'charge') };
  };

  const chargeTransaction = (charge: StripeObject, fee: number) => {
    const amount = Number(charge.amount);
    const transaction = addTransaction({
      account: null,
      type: 'charge',
      reportingCategory: 'charge',
      amount,
      fee: { amount: fee, description: 'Stripe processing fees' },
      source: charge.id,
      availableOn: nowS() + CARD_PENDING_S,
    });
    charge.balance_transaction = transaction.id;
  };

  // Refunds.

  /** A refund, pending, and the charge.refunded event it sent. */
  function createRefund(params: Params, request = currentRequest) {
    const intentId = text(params, 'payment_intent');
    const chargeId = text(params, 'charge');
    if (!intentId && !chargeId) {
      throw invalid(
        'One of the following params should be provided for this request: payment_intent or charge.',
      );
    }
    const charge = chargeId
      ? find(chargeId, 'charge', null, 'charge')
      : find(String(find(intentId ?? '', 'payment_intent', null, 'payment_intent').latest_charge), 'charge');
    const requested = text(params, 'amount');
    const amountAsked = requested === undefined ? undefined : Number(requested);
    if (amountAsked !== undefined && !(Number.isInteger(amountAsked) && amountAsked > 0)) {
      throw invalid('Invalid positive integer', { param: 'amount', code: 'parameter_invalid_integer' });
    }
    const dispute = all('dispute').find((object) => object.charge === charge.id);
    if (dispute && dispute.status !== 'won') {
      throw refused(`Charge ${charge.id} has been charged back; cannot issue a refund.`, {
        code: 'charge_disputed',
      });
    }
    const left = Number(charge.amount) - Number(charge.amount_refunded);
    if (left <= 0) {
      throw refused(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    }
    const amount = amountAsked ?? left;
    if (amount > left) {
      throw refused(
        `Refund amount (${dollars(amount)}) is greater than unrefunded amount on charge (${dollars(left)})`,
        { param: 'amount' },
      );
    }
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    const refund = store({
      id: newId('re'),
      object: 'refund',
      amount,
      balance_transaction: null,
      charge: charge.id,
      created: nowS(),
      currency: charge.currency,
      failure_balance_transaction: null,
      failure_reason: null,
      metadata: at(params, 'metadata') ?? {},
      payment_intent: charge.payment_intent,
      // Stripe takes a refund from the available balance; one it cannot cover waits for funds.
      pending_reason: balanceOf(null).available >= amount ? 'processing' : 'insufficient_funds',
      reason: text(params, 'reason') ?? null,
      status: 'pending',
    });
    const refunded = emit('charge.refunded', charge, request);
    emit('refund.created', refund, request);
    return { refund, refunded };
  }

  // Transfers and connected accounts.

  function createTransfer(params: Params): StripeObject {
    if (text(params, 'amount') === undefined) {
      throw invalid('Missing required param: amount.', { param: 'amount', code: 'parameter_missing' });
    }
    const amount = Number(text(params, 'amount'));
    if (!(Number.isInteger(amount) && amount > 0)) {
      throw invalid('Invalid positive integer', { param: 'amount', code: 'parameter_invalid_integer' });
    }
    const currency = text(params, 'currency');
    if (!currency)
      throw invalid('Missing required param: currency.', { param: 'currency', code: 'parameter_missing' });
    const destination = text(params, 'destination') ?? '';
    const account = objects.get(destination);
    if (account?.object !== 'account') {
      throw invalid(`No such destination: '${destination}'`, { param: 'destination' });
    }
    // Stripe checks the destination before it starts: a retry with the same key is checked afresh.
    if (at(account, 'capabilities', 'transfers') !== 'active') {
      throw invalid(
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        { code: 'insufficient_capabilities_for_transfer' },
      );
    }
    const recipient = at(account, 'tos_acceptance', 'service_agreement') === 'recipient';
    if (!recipient && !FULL_AGREEMENT_COUNTRIES.has(String(account.country))) {
      throw invalid(
        `Funds can't be sent to accounts located in ${String(account.country)} when the account is under the \`full\` service agreement.`,
        { param: 'destination' },
      );
    }
    const sourceId = text(params, 'source_transaction');
    let availableOn = nowS();
    if (sourceId) {
      // The transfer draws on that charge, not on the balance: its funds come when the charge's come.
      const charge = find(sourceId, 'charge', null, 'source_transaction');
      const chargeTransactionId = charge.balance_transaction;
      if (typeof chargeTransactionId !== 'string') {
        throw refused(`The source transaction ${sourceId} has not succeeded yet.`, {
          param: 'source_transaction',
        });
      }
      const transferred = all('transfer')
        .filter((transfer) => transfer.source_transaction === sourceId)
        .reduce((sum, transfer) => sum + Number(transfer.amount) - Number(transfer.amount_reversed), 0);
      const left = Number(charge.amount) - Number(charge.amount_refunded) - transferred;
      if (amount > left) {
        throw refused(
          `The transfer amount (${dollars(amount)}) exceeds what is left of source transaction ${sourceId} (${dollars(left)}).`,
          { param: 'amount' },
        );
      }
      availableOn = Number(find(chargeTransactionId, 'balance_transaction').available_on);
    } else if (balanceOf(null).available < amount) {
      throw refused(
        'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance',
        { code: 'balance_insufficient' },
      );
    }
    const transferId = newId('tr');
    const paymentId = newId('py');
    const outgoing = addTransaction({
      account: null,
      type: 'transfer',
      reportingCategory: 'transfer',
      amount: -amount,
      source: transferId,
      availableOn,
    });
    const incoming = addTransaction({
      account: destination,
      type: 'payment',
      reportingCategory: 'charge',
      amount,
      source: paymentId,
      availableOn: availableOn + (recipient ? RECIPIENT_DELAY_S : 0),
    });
    store(
      {
        id: paymentId,
        object: 'charge',
        amount,
        amount_refunded: 0,
        balance_transaction: incoming.id,
        created: nowS(),
        currency,
        paid: true,
        refunded: false,
        source_transfer: transferId,
        status: 'succeeded',
      },
      destination,
    );
    const transfer = store({
      id: transferId,
      object: 'transfer',
      amount,
      amount_reversed: 0,
      balance_transaction: outgoing.id,
      created: nowS(),
      currency,
      description: text(params, 'description') ?? null,
      destination,
      destination_payment: paymentId,
      livemode: false,
      metadata: at(params, 'metadata') ?? {},
      reversals: { object: 'list', data: [], has_more: false, url: `/v1/transfers/${transferId}/reversals` },
      reversed: false,
      source_transaction: sourceId ?? null,
      source_type: 'card',
      transfer_group: text(params, 'transfer_group') ?? null,
    });
    emit('transfer.created', transfer);
    return transfer;
  }

  function createAccount(params: Params): StripeObject {
    const type = text(params, 'type');
    const controllerParams = at(params, 'controller');
    if (type && controllerParams)
      throw invalid('You may only specify one of these parameters: controller, type.');
    const legacy = type === undefined ? undefined : LEGACY_CONTROLLERS[type];
    if (type && !legacy)
      throw invalid('Invalid type: must be one of custom, express, standard', { param: 'type' });
    const controller = legacy ?? {
      fees: { payer: text(controllerParams, 'fees', 'payer') ?? 'account' },
      losses: { payments: text(controllerParams, 'losses', 'payments') ?? 'stripe' },
      requirement_collection: text(controllerParams, 'requirement_collection') ?? 'stripe',
      stripe_dashboard: { type: text(controllerParams, 'stripe_dashboard', 'type') ?? 'full' },
    };
    const country = (text(params, 'country') ?? 'US').toUpperCase();
    const serviceAgreement = text(params, 'tos_acceptance', 'service_agreement') ?? 'full';
    const requested = Object.entries((at(params, 'capabilities') ?? {}) as Record<string, unknown>)
      .filter(([, capability]) => text(capability, 'requested') === 'true')
      .map(([name]) => name);
    // A US platform pays accounts abroad only under the recipient service agreement (cross-border payouts).
    if (
      country !== 'US' &&
      serviceAgreement === 'full' &&
      requested.includes('transfers') &&
      !requested.includes('card_payments')
    ) {
      throw invalid(
        `You cannot request the \`transfers\` capability without the \`card_payments\` capability for accounts in ${country}.`,
        { param: 'capabilities' },
      );
    }
    return store({
      id: newId('acct'),
      object: 'account',
      type: TYPE_OF_DASHBOARD[String(at(controller, 'stripe_dashboard', 'type'))] ?? 'none',
      controller: { type: 'application', is_controller: true, ...controller },
      country,
      default_currency: 'usd',
      email: text(params, 'email') ?? null,
      metadata: at(params, 'metadata') ?? {},
      capabilities: Object.fromEntries(requested.map((name) => [name, 'inactive'])),
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      requirements: requirementsDue(EXPRESS_ONBOARDING),
      tos_acceptance: { date: null, ip: null, service_agreement: serviceAgreement, user_agent: null },
      created: nowS(),
    });
  }

  function createLoginLink(accountId: string) {
    const account = find(accountId, 'account');
    if (at(account, 'controller', 'stripe_dashboard', 'type') !== 'express') {
      throw invalid(
        `Cannot create an edit link for the account ${accountId}, which is not an Express account.`,
      );
    }
    if (!account.details_submitted) {
      throw refused('Cannot create a login link for an account that has not completed onboarding.');
    }
    return {
      object: 'login_link',
      created: nowS(),
      url: `https://connect.stripe.com/express/${randomBytes(9).toString('base64url')}`,
    };
  }

  function createAccountLink(params: Params) {
    const account = find(text(params, 'account') ?? '', 'account', null, 'account');
    for (const field of ['type', 'return_url', 'refresh_url']) {
      if (!text(params, field)) {
        throw invalid(`Missing required param: ${field}.`, { param: field, code: 'parameter_missing' });
      }
    }
    return {
      object: 'account_link',
      url: `https://connect.stripe.com/setup/e/${account.id}/${randomBytes(8).toString('hex')}`,
      created: nowS(),
      expires_at: nowS() + 5 * MINUTE_S,
    };
  }

  function balanceObject(account: string | null) {
    const { available, pending } = balanceOf(account);
    const funds = (amount: number) => [{ amount, currency: 'usd', source_types: { card: amount } }];
    return { object: 'balance', available: funds(available), pending: funds(pending), livemode: false };
  }

  function listTransactions(params: Params, account: string | null) {
    const payoutId = text(params, 'payout');
    const transactions = all('balance_transaction', account).filter(
      (transaction) => !payoutId || payoutOf.get(transaction.id) === payoutId,
    );
    return page(
      transactions.filter(
        (transaction) =>
          createdWithin(transaction, params) &&
          ['type', 'source'].every(
            (field) => !text(params, field) || transaction[field] === text(params, field),
          ),
      ),
      params,
      '/v1/balance_transactions',
      'balance_transaction',
    );
  }

  interface Answer {
    status: number;
    body: unknown;
    call: StripeCall;
    requestId: string;
  }

  function answer(request: IncomingMessage, body: string): Answer {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const method = request.method ?? 'GET';
    const params = parseForm(method === 'GET' ? url.search.slice(1) : body);
    const idempotencyKey = method === 'POST' ? (header(request, 'idempotency-key') ?? null) : null;
    const account = header(request, 'stripe-account') ?? null;
    const requestId = newId('req');
    const call: StripeCall = {
      method,
      path: url.pathname,
      idempotencyKey,
      account,
      params,
      status: 200,
      replayed: false,
    };
    calls.push(call);
    const respond = (status: number, responseBody: unknown): Answer => {
      call.status = status;
      return { status, body: responseBody, call, requestId };
    };

    if (header(request, 'authorization') !== `Bearer ${secretKey}`) {
      return respond(
        401,
        errorBody({ status: 401, type: 'invalid_request_error', message: 'Invalid API Key provided' }),
      );
    }
    tick();
    const fingerprint = JSON.stringify([method, url.pathname, params]);
    // Keys belong to the account they were used on.
    const keyOf = idempotencyKey && `${account ?? ''} ${idempotencyKey}`;
    const earlier = keyOf ? idempotent.get(keyOf) : undefined;
    if (keyOf && earlier && nowS() - earlier.savedAt >= IDEMPOTENCY_WINDOW_S) idempotent.delete(keyOf);
    else if (earlier) {
      if (earlier.request !== fingerprint) {
        return respond(
          400,
          errorBody({
            status: 400,
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          }),
        );
      }
      call.replayed = true;
      return respond(earlier.status, earlier.body);
    }
    const remember = (status: number, responseBody: unknown) => {
      if (keyOf) idempotent.set(keyOf, { request: fingerprint, status, body: responseBody, savedAt: nowS() });
      return respond(status, responseBody);
    };

    const failure = failures.get(`${method} ${url.pathname}`);
    if (failure) {
      failures.delete(`${method} ${url.pathname}`);
      // Stripe keeps the outcome of a request that started, a 500 included, for its idempotency key.
      return remember(failure.status, errorBody(failure));
    }
    for (const [routeMethod, pattern, handle] of routes) {
      const match = method === routeMethod ? url.pathname.match(pattern) : null;
      if (!match) continue;
      currentRequest = { id: requestId, idempotency_key: idempotencyKey };
      try {
        return remember(200, handle(params, match[1] ?? '', account));
      } catch (error) {
        if (error instanceof StripeRequestError) {
          const refusal = errorBody(error.body);
          return error.kept ? remember(error.body.status, refusal) : respond(error.body.status, refusal);
        }
        return respond(
          500,
          errorBody({ status: 500, type: 'api_error', message: `stand-in bug: ${String(error)}` }),
        );
      } finally {
        currentRequest = NO_REQUEST;
      }
    }
    return respond(
      404,
      errorBody({
        status: 404,
        type: 'invalid_request_error',
        message: `Unrecognized request URL (${method}: ${url.pathname}).`,
      }),
    );
  }

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { status, body, call, requestId } = answer(request, Buffer.concat(chunks).toString('utf8'));
      response.writeHead(status, {
        'content-type': 'application/json',
        'request-id': requestId,
        // Retrying cannot change a kept or refused outcome; the SDK would only wait for the same answer.
        ...(status >= 400 && { 'stripe-should-retry': 'false' }),
        ...(call.replayed && { 'idempotent-replayed': 'true' }),
        ...(call.idempotencyKey && { 'idempotency-key': call.idempotencyKey }),
      });
      setTimeout(() => response.end(JSON.stringify(body)), latencyMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** A test's action, on the clock's present, sending events as Stripe's own (no API request behind them). */
  const act = <T>(change: () => T): T => {
    tick();
    return change();
  };

  const refundOf = (refundId: string) => {
    const refund = find(refundId, 'refund');
    return { refund, charge: find(String(refund.charge), 'charge') };
  };

  return {
    url: `http://127.0.0.1:${port}`,
    secretKey,
    webhookSecret,
    calls,
    callsTo: (method, path) => calls.filter((call) => call.method === method && call.path === path),
    get(id) {
      const object = objects.get(id);
      if (!object) throw new Error(`the stand-in has no object ${id}`);
      return copy(object);
    },
    failNext(route, error = {}) {
      failures.set(route, {
        status: 500,
        type: 'api_error',
        message: 'An unknown error occurred',
        ...error,
      });
    },
    now: nowS,
    advance(seconds) {
      if (!(seconds >= 0)) throw new Error(`the clock only moves forward, not by ${seconds} s`);
      clockOffsetS += seconds;
      tick();
    },
    pay: (sessionId, { fee, processing = false } = {}) =>
      act(() => {
        const session = openSessionOf(sessionId);
        const amount = Number(session.amount_total);
        const data = intentData.get(sessionId);
        const metadata = data?.metadata ?? {};
        const transferGroup = data?.transferGroup ?? null;
        const intentId = newId('pi');
        const charge = store({
          id: newId('ch'),
          object: 'charge',
          amount,
          amount_captured: amount,
          amount_refunded: 0,
          balance_transaction: null,
          captured: true,
          created: nowS(),
          currency: session.currency,
          disputed: false,
          livemode: false,
          metadata: {},
          paid: true,
          payment_intent: intentId,
          refunded: false,
          status: processing ? 'pending' : 'succeeded',
          transfer_group: transferGroup,
        });
        const intent = store({
          id: intentId,
          object: 'payment_intent',
          amount,
          currency: session.currency,
          status: processing ? 'processing' : 'succeeded',
          latest_charge: charge.id,
          metadata,
          transfer_group: transferGroup,
          created: nowS(),
        });
        Object.assign(session, {
          status: 'complete',
          payment_status: processing ? 'unpaid' : 'paid',
          payment_intent: intentId,
          url: null,
        });
        if (processing) {
          clearingFees.set(charge.id, fee ?? stripeFee(amount));
          emit('charge.pending', charge);
          emit('payment_intent.processing', intent);
        } else {
          chargeTransaction(charge, fee ?? stripeFee(amount));
          emit('charge.succeeded', charge);
          emit('payment_intent.succeeded', intent);
        }
        return emit('checkout.session.completed', session);
      }),
    settleAsyncPayment: (sessionId) =>
      act(() => {
        const session = find(sessionId, 'checkout.session');
        const { intent, charge } = chargeOfSession(sessionId);
        const fee = clearingFees.get(charge.id);
        if (fee === undefined) throw new Error(`the payment of session ${sessionId} is not processing`);
        clearingFees.delete(charge.id);
        chargeTransaction(charge, fee);
        Object.assign(intent, { status: 'succeeded' });
        Object.assign(charge, { status: 'succeeded' });
        Object.assign(session, { payment_status: 'paid' });
        emit('charge.succeeded', charge);
        emit('payment_intent.succeeded', intent);
        return emit('checkout.session.async_payment_succeeded', session);
      }),
    expire: (sessionId) => act(() => closeSession(openSessionOf(sessionId))),
    openSession: ({ amountCents, currency = 'usd', clientReferenceId, metadata = {} }) =>
      act(() => {
        const minimum = MINIMUM_CHARGES[currency];
        if (minimum && amountCents < minimum.cents) {
          throw new Error(`Stripe takes no payment under ${minimum.label}`);
        }
        return newSession({
          amount: amountCents,
          currency,
          expiresAt: nowS() + DAY_S,
          clientReferenceId: clientReferenceId ?? null,
          metadata,
        }).id;
      }),
    successUrlOf(sessionId) {
      const successUrl = find(sessionId, 'checkout.session').success_url;
      if (typeof successUrl !== 'string') throw new Error(`session ${sessionId} has no success_url`);
      return successUrl.replaceAll('{CHECKOUT_SESSION_ID}', sessionId);
    },
    settleRefunds: () =>
      act(() => {
        const events: Stripe.Event[] = [];
        for (const refund of all('refund').filter((object) => object.status === 'pending')) {
          const amount = Number(refund.amount);
          if (balanceOf(null).available < amount) {
            if (refund.pending_reason !== 'insufficient_funds') {
              refund.pending_reason = 'insufficient_funds';
              events.push(emit('refund.updated', refund));
            }
            continue;
          }
          const transaction = addTransaction({
            account: null,
            type: 'refund',
            reportingCategory: 'refund',
            amount: -amount,
            source: refund.id,
          });
          Object.assign(refund, {
            status: 'succeeded',
            pending_reason: null,
            balance_transaction: transaction.id,
          });
          events.push(emit('refund.updated', refund), emit('charge.refund.updated', refund));
        }
        return events;
      }),
    failRefund: (refundId, failureReason = 'expired_or_canceled_card') =>
      act(() => {
        const { refund, charge } = refundOf(refundId);
        if (refund.status !== 'pending' && refund.status !== 'succeeded') {
          throw new Error(`refund ${refundId} is ${String(refund.status)}: it cannot fail`);
        }
        const amount = Number(refund.amount);
        // The money comes back only if it had left.
        if (refund.balance_transaction) {
          const back = addTransaction({
            account: null,
            type: 'refund_failure',
            reportingCategory: 'refund_failure',
            amount,
            source: refund.id,
          });
          refund.failure_balance_transaction = back.id;
        }
        Object.assign(refund, { status: 'failed', failure_reason: failureReason, pending_reason: null });
        charge.amount_refunded = Number(charge.amount_refunded) - amount;
        charge.refunded = false;
        return [
          emit('refund.failed', refund),
          emit('refund.updated', refund),
          emit('charge.refund.updated', refund),
        ];
      }),
    dashboardRefund: (paymentIntentId, amountCents) =>
      act(() => {
        try {
          const params = {
            payment_intent: paymentIntentId,
            ...(amountCents !== undefined && { amount: String(amountCents) }),
          };
          // The Dashboard calls the API too, with a request id but no idempotency key.
          return createRefund(params, { id: newId('req'), idempotency_key: null }).refunded;
        } catch (error) {
          if (error instanceof StripeRequestError) throw new Error(`Stripe refused: ${error.message}`);
          throw error;
        }
      }),
    dispute: (paymentIntentId, reason = 'fraudulent') =>
      act(() => {
        const intent = find(paymentIntentId, 'payment_intent');
        const charge = find(String(intent.latest_charge), 'charge');
        const amount = Number(charge.amount) - Number(charge.amount_refunded);
        if (charge.disputed || amount <= 0 || charge.status !== 'succeeded') {
          throw new Error(`charge ${charge.id} cannot be disputed`);
        }
        const disputeId = newId('dp');
        const withdrawal = addTransaction({
          account: null,
          type: 'adjustment',
          reportingCategory: 'dispute',
          amount: -amount,
          fee: { amount: DISPUTE_FEE, description: 'Dispute fee' },
          source: disputeId,
          description: `Chargeback withdrawal for ${charge.id}`,
        });
        charge.disputed = true;
        const dispute = store({
          id: disputeId,
          object: 'dispute',
          amount,
          balance_transactions: [copy(withdrawal)],
          charge: charge.id,
          created: nowS(),
          currency: charge.currency,
          evidence_details: {
            due_by: nowS() + 7 * DAY_S,
            has_evidence: false,
            past_due: false,
            submission_count: 0,
          },
          is_charge_refundable: false,
          livemode: false,
          metadata: {},
          payment_intent: intent.id,
          reason,
          status: 'needs_response',
        });
        const created = emit('charge.dispute.created', dispute);
        emit('charge.dispute.funds_withdrawn', dispute);
        return created;
      }),
    closeDispute: (disputeId, outcome) =>
      act(() => {
        const dispute = find(disputeId, 'dispute');
        if (dispute.status !== 'needs_response')
          throw new Error(`dispute ${disputeId} is ${String(dispute.status)}`);
        dispute.status = outcome;
        if (outcome === 'won') {
          const amount = Number(dispute.amount);
          const reinstated = addTransaction({
            account: null,
            type: 'adjustment',
            reportingCategory: 'dispute_reversal',
            amount,
            fee: { amount: -DISPUTE_FEE, description: 'Dispute fee refund' },
            source: disputeId,
            description: `Chargeback reversal for ${String(dispute.charge)}`,
          });
          (dispute.balance_transactions as StripeObject[]).push(copy(reinstated));
          dispute.is_charge_refundable = true;
          emit('charge.dispute.funds_reinstated', dispute);
        }
        return emit('charge.dispute.closed', dispute);
      }),
    completeOnboarding: (accountId) =>
      act(() => {
        const account = find(accountId, 'account');
        const capabilities = Object.keys(account.capabilities as Record<string, unknown>);
        Object.assign(account, {
          details_submitted: true,
          charges_enabled: capabilities.includes('card_payments'),
          payouts_enabled: true,
          capabilities: Object.fromEntries(capabilities.map((name) => [name, 'active'])),
          requirements: requirementsDue([]),
        });
        return emit('account.updated', account);
      }),
    requireMore: (accountId, fields) =>
      act(() => {
        const account = find(accountId, 'account');
        Object.assign(account, {
          payouts_enabled: false,
          capabilities: { ...(account.capabilities as Record<string, unknown>), transfers: 'inactive' },
          requirements: requirementsDue(fields),
        });
        return emit('account.updated', account);
      }),
    payOutConnected: (accountId, { fail = false } = {}) =>
      act(() => {
        find(accountId, 'account');
        const amount = balanceOf(accountId).available;
        if (amount <= 0) throw new Error(`account ${accountId} has no available balance to pay out`);
        const payoutId = newId('po');
        const paidOut = all('balance_transaction', accountId).filter(
          (transaction) => transaction.status === 'available' && !payoutOf.has(transaction.id),
        );
        const transaction = addTransaction({
          account: accountId,
          type: 'payout',
          reportingCategory: 'payout',
          amount: -amount,
          source: payoutId,
        });
        for (const { id } of [...paidOut, transaction]) payoutOf.set(id, payoutId);
        const payout = store(
          {
            id: payoutId,
            object: 'payout',
            amount,
            arrival_date: nowS() + DAY_S,
            automatic: true,
            balance_transaction: transaction.id,
            created: nowS(),
            currency: 'usd',
            description: 'STRIPE PAYOUT',
            destination: newId('ba'),
            failure_balance_transaction: null,
            failure_code: null,
            failure_message: null,
            livemode: false,
            metadata: {},
            method: 'standard',
            reconciliation_status: 'completed',
            source_type: 'card',
            statement_descriptor: null,
            status: 'pending',
            type: 'bank_account',
          },
          accountId,
        );
        emit('payout.created', payout);
        if (!fail) {
          payout.status = 'paid';
          return emit('payout.paid', payout);
        }
        const back = addTransaction({
          account: accountId,
          type: 'payout_failure',
          reportingCategory: 'payout_reversal',
          amount,
          source: payoutId,
        });
        Object.assign(payout, {
          status: 'failed',
          failure_code: 'account_closed',
          failure_message: 'The bank account has been closed.',
          failure_balance_transaction: back.id,
        });
        return emit('payout.failed', payout);
      }),
    sent,
    takeEvents(type) {
      const taken = sent.filter((stripeEvent) => type === undefined || stripeEvent.type === type);
      const left = sent.filter((stripeEvent) => type !== undefined && stripeEvent.type !== type);
      sent.splice(0, sent.length, ...left);
      return taken;
    },
    event: (type, object, options = {}) => makeEvent(type, object, options),
    deliver(app, stripeEvent, options = {}) {
      // Stripe sends its events pretty-printed; the signature covers these exact bytes.
      const payload = JSON.stringify(stripeEvent, null, 2);
      const signature = Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
        ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
      });
      return api(app, {
        method: 'POST',
        url: WEBHOOK_PATH,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          ...(!options.unsigned && { 'stripe-signature': signature }),
        },
        payload: options.tamperedBody ?? payload,
      });
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

type Params = Record<string, unknown>;

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function errorBody({ status: _status, ...error }: StripeErrorBody) {
  return { error: { ...error, doc_url: 'https://docs.stripe.com/error-codes' } };
}

/** An account's requirements while Stripe waits for `fields` (none: nothing is due). */
function requirementsDue(fields: string[]) {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: fields,
    disabled_reason: fields.length > 0 ? 'requirements.past_due' : null,
    errors: [],
    eventually_due: fields,
    past_due: fields,
    pending_verification: [],
  };
}

/** Cents as Stripe writes them in its messages: $12.50. */
function dollars(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

const CREATED_TESTS: Record<string, (created: number, bound: number) => boolean> = {
  gt: (created, bound) => created > bound,
  gte: (created, bound) => created >= bound,
  lt: (created, bound) => created < bound,
  lte: (created, bound) => created <= bound,
};

/** Whether an object falls in a list's `created` filter: a timestamp, or a range (`created[gte]`…). */
function createdWithin(object: StripeObject, params: Params): boolean {
  const range = at(params, 'created');
  if (range === undefined) return true;
  if (typeof range === 'string') return object.created === Number(range);
  return Object.entries(CREATED_TESTS).every(([operator, test]) => {
    const bound = text(range, operator);
    return bound === undefined || test(Number(object.created), Number(bound));
  });
}

/** The value at a path of nested params (object keys or array indexes). */
function at(value: unknown, ...path: Array<string | number>): unknown {
  let node = value;
  for (const key of path) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

function text(value: unknown, ...path: Array<string | number>): string | undefined {
  const found = at(value, ...path);
  return typeof found === 'string' ? found : undefined;
}

function expandOf(params: Params): string[] {
  const expand = at(params, 'expand');
  return Array.isArray(expand) ? expand.filter((path): path is string => typeof path === 'string') : [];
}

/**
 * Stripe's form encoding (`line_items[0][price_data][currency]=usd`, `expand[0]=…`) decoded into nested
 * objects, with arrays where every key is an index. Values stay strings, as on the wire.
 */
function parseForm(form: string): Params {
  const root: Params = {};
  for (const [key, value] of new URLSearchParams(form)) {
    const path = key.replaceAll(']', '').split('[');
    let node = root;
    path.forEach((segment, index) => {
      if (index === path.length - 1) node[segment] = value;
      else node = (node[segment] ??= {}) as Params;
    });
  }
  return withArrays(root) as Params;
}

function withArrays(value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([key, child]) => [key, withArrays(child)] as const);
  const isList = entries.length > 0 && entries.every(([key], index) => key === String(index));
  return isList ? entries.map(([, child]) => child) : Object.fromEntries(entries);
}
