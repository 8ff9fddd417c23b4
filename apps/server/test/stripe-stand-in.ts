import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import Stripe from 'stripe';
import type { App } from '../src/app';
import { api } from './factories';

/**
 * Stripe's API as far as Stagedoor uses it, on 127.0.0.1: the official SDK talks to it over HTTP, with
 * Stripe's form-encoded requests, JSON objects and error bodies, and Idempotency-Key replays. Tests
 * play the fan and Stripe's side (pay, expire, onboard) and deliver signed webhook events to the app.
 */

type StripeObject = { id: string; object: string } & Record<string, unknown>;

interface StripeCall {
  method: string;
  /** Without the query string. */
  path: string;
  idempotencyKey: string | null;
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

interface StripeStandIn {
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
  /**
   * The fan pays a session: a PaymentIntent, its charge and balance transaction with Stripe's fee
   * (2.9 % + 30¢ unless given). `processing`: a bank debit, the session completes unpaid until
   * settleAsyncPayment. Answers the checkout.session.completed event Stripe would send.
   */
  pay(sessionId: string, options?: { fee?: number; processing?: boolean }): Stripe.Event;
  /** A processing payment clears: answers checkout.session.async_payment_succeeded. */
  settleAsyncPayment(sessionId: string): Stripe.Event;
  /** The session reaches its expires_at unpaid: answers checkout.session.expired. */
  expire(sessionId: string): Stripe.Event;
  /** The creator finishes Express onboarding: answers account.updated. */
  completeOnboarding(accountId: string): Stripe.Event;
  /** A new event (its own evt_ id) about a copy of `object`, as Stripe renders it. */
  event(type: string, object: StripeObject, options?: { livemode?: boolean }): Stripe.Event;
  /** POSTs an event to the app's webhook route with Stripe's signature header (or a forged one). */
  deliver(app: App, event: Stripe.Event, options?: DeliveryOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** Stripe's card fee in the US: 2.9 % + 30¢. */
export const stripeFee = (amountCents: number) => Math.round(amountCents * 0.029) + 30;

const WEBHOOK_PATH = '/api/payments/stripe/webhook';

const MINUTE_S = 60;

class StripeRequestError extends Error {
  constructor(readonly body: StripeErrorBody) {
    super(body.message);
  }
}

const invalid = (message: string, extra: Partial<StripeErrorBody> = {}) =>
  new StripeRequestError({ status: 400, type: 'invalid_request_error', message, ...extra });

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const objects = new Map<string, StripeObject>();
  const calls: StripeCall[] = [];
  const failures = new Map<string, StripeErrorBody>();
  const idempotent = new Map<string, { request: string; status: number; body: unknown }>();
  /** What a session's PaymentIntent will carry as metadata (payment_intent_data[metadata]), by session id. */
  const intentMetadata = new Map<string, unknown>();
  /** The balance transaction of a charge still processing, by charge id: it appears when the charge clears. */
  const clearing = new Map<string, string>();

  const nowS = () => Math.floor(Date.now() / 1000);
  const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
  const store = <T extends StripeObject>(object: T): T => {
    objects.set(object.id, object);
    return object;
  };
  const find = (id: string, kind: string): StripeObject => {
    const object = objects.get(id);
    if (!object || object.object !== kind) {
      throw new StripeRequestError({
        status: 404,
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: `No such ${kind}: '${id}'`,
      });
    }
    return object;
  };
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

  /** Method, path (its one group an id) and what answers it. */
  const routes: Array<[string, RegExp, (params: Params, id: string) => unknown]> = [
    ['POST', /^\/v1\/checkout\/sessions$/, (params) => createSession(params)],
    [
      'GET',
      /^\/v1\/checkout\/sessions\/([^/]+)$/,
      (params, id) => expanded(find(id, 'checkout.session'), expandOf(params)),
    ],
    ['POST', /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/, (_params, id) => expireSession(id)],
    [
      'GET',
      /^\/v1\/payment_intents\/([^/]+)$/,
      (params, id) => expanded(find(id, 'payment_intent'), expandOf(params)),
    ],
    ['POST', /^\/v1\/refunds$/, (params) => createRefund(params)],
    ['GET', /^\/v1\/refunds$/, (params) => listRefunds(params)],
    ['POST', /^\/v1\/transfers$/, (params) => createTransfer(params)],
    ['POST', /^\/v1\/accounts$/, (params) => createAccount(params)],
    ['GET', /^\/v1\/accounts\/([^/]+)$/, (_params, id) => copy(find(id, 'account'))],
    ['POST', /^\/v1\/account_links$/, (params) => createAccountLink(params)],
  ];

  function createSession(params: Params): StripeObject {
    if (text(params, 'mode') !== 'payment')
      throw invalid('Only mode=payment is supported here', { param: 'mode' });
    const quantity = Number(text(params, 'line_items', 0, 'quantity'));
    const unitAmount = Number(text(params, 'line_items', 0, 'price_data', 'unit_amount'));
    const name = text(params, 'line_items', 0, 'price_data', 'product_data', 'name');
    const currency = text(params, 'line_items', 0, 'price_data', 'currency');
    if (!(quantity >= 1) || !(unitAmount >= 0) || !name || !currency) {
      throw invalid(
        'line_items[0] needs quantity and price_data (currency, unit_amount, product_data[name])',
        {
          param: 'line_items',
        },
      );
    }
    const expiresAt = Number(text(params, 'expires_at') ?? nowS() + 24 * 60 * MINUTE_S);
    if (expiresAt - nowS() < 30 * MINUTE_S) {
      throw invalid(
        'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.',
        {
          param: 'expires_at',
        },
      );
    }
    if (expiresAt - nowS() > 24 * 60 * MINUTE_S) {
      throw invalid('The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', {
        param: 'expires_at',
      });
    }
    const id = newId('cs_test');
    intentMetadata.set(id, at(params, 'payment_intent_data', 'metadata') ?? {});
    return store({
      id,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      payment_intent: null,
      amount_subtotal: quantity * unitAmount,
      amount_total: quantity * unitAmount,
      currency,
      customer_email: text(params, 'customer_email') ?? null,
      client_reference_id: text(params, 'client_reference_id') ?? null,
      metadata: at(params, 'metadata') ?? {},
      expires_at: expiresAt,
      success_url: text(params, 'success_url') ?? null,
      cancel_url: text(params, 'cancel_url') ?? null,
      url: `https://checkout.stripe.com/c/pay/${id}`,
      created: nowS(),
      livemode: false,
    });
  }

  function expireSession(id: string): StripeObject {
    const session = find(id, 'checkout.session');
    if (session.status !== 'open') {
      throw invalid(
        `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`,
      );
    }
    Object.assign(session, { status: 'expired', url: null });
    return copy(session);
  }

  function createRefund(params: Params): StripeObject {
    const intentId = text(params, 'payment_intent');
    if (!intentId) throw invalid('Must provide payment_intent or charge', { param: 'payment_intent' });
    const intent = find(intentId, 'payment_intent');
    const charge = find(String(intent.latest_charge), 'charge');
    const left = Number(charge.amount) - Number(charge.amount_refunded);
    if (left <= 0) {
      throw invalid(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    }
    const amount = Number(text(params, 'amount') ?? left);
    if (amount > left) throw invalid(`Refund amount is greater than unrefunded amount on charge (${left})`);
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return store({
      id: newId('re'),
      object: 'refund',
      amount,
      currency: charge.currency,
      charge: charge.id,
      payment_intent: intent.id,
      status: 'succeeded',
      metadata: at(params, 'metadata') ?? {},
      created: nowS(),
    });
  }

  function listRefunds(params: Params) {
    const intentId = text(params, 'payment_intent');
    const data = [...objects.values()]
      .filter((object) => object.object === 'refund' && (!intentId || object.payment_intent === intentId))
      .reverse();
    return { object: 'list', data, has_more: false, url: '/v1/refunds' };
  }

  function createTransfer(params: Params): StripeObject {
    const destination = text(params, 'destination') ?? '';
    const account = objects.get(destination);
    if (account?.object !== 'account')
      throw invalid(`No such destination: '${destination}'`, { param: 'destination' });
    if (at(account, 'capabilities', 'transfers') !== 'active') {
      throw invalid(
        'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
        { code: 'insufficient_capabilities_for_transfer' },
      );
    }
    return store({
      id: newId('tr'),
      object: 'transfer',
      amount: Number(text(params, 'amount')),
      currency: text(params, 'currency'),
      destination,
      metadata: at(params, 'metadata') ?? {},
      reversed: false,
      created: nowS(),
    });
  }

  function createAccount(params: Params): StripeObject {
    const requested = (at(params, 'capabilities') ?? {}) as Record<string, unknown>;
    return store({
      id: newId('acct'),
      object: 'account',
      type: text(params, 'type') ?? 'standard',
      email: text(params, 'email') ?? null,
      metadata: at(params, 'metadata') ?? {},
      capabilities: Object.fromEntries(Object.keys(requested).map((name) => [name, 'inactive'])),
      charges_enabled: false,
      payouts_enabled: false,
      details_submitted: false,
      created: nowS(),
    });
  }

  function createAccountLink(params: Params) {
    const account = find(text(params, 'account') ?? '', 'account');
    for (const field of ['type', 'return_url', 'refresh_url']) {
      if (!text(params, field)) throw invalid(`Missing required param: ${field}.`, { param: field });
    }
    return {
      object: 'account_link',
      url: `https://connect.stripe.com/setup/e/${account.id}/${randomBytes(8).toString('hex')}`,
      created: nowS(),
      expires_at: nowS() + 5 * MINUTE_S,
    };
  }

  interface Answer {
    status: number;
    body: unknown;
    call: StripeCall;
  }

  function answer(request: IncomingMessage, body: string): Answer {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    const method = request.method ?? 'GET';
    const params = parseForm(method === 'GET' ? url.search.slice(1) : body);
    const idempotencyKey = method === 'POST' ? (header(request, 'idempotency-key') ?? null) : null;
    const call: StripeCall = {
      method,
      path: url.pathname,
      idempotencyKey,
      params,
      status: 200,
      replayed: false,
    };
    calls.push(call);
    const respond = (status: number, responseBody: unknown): Answer => {
      call.status = status;
      return { status, body: responseBody, call };
    };

    if (header(request, 'authorization') !== `Bearer ${secretKey}`) {
      return respond(
        401,
        errorBody({ status: 401, type: 'invalid_request_error', message: 'Invalid API Key provided' }),
      );
    }
    const fingerprint = JSON.stringify([method, url.pathname, params]);
    const earlier = idempotencyKey ? idempotent.get(idempotencyKey) : undefined;
    if (earlier) {
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
      if (idempotencyKey)
        idempotent.set(idempotencyKey, { request: fingerprint, status, body: responseBody });
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
      try {
        return remember(200, handle(params, match[1] ?? ''));
      } catch (error) {
        // A request refused before it started is not kept: a retry is checked afresh.
        if (error instanceof StripeRequestError) return respond(error.body.status, errorBody(error.body));
        return respond(
          500,
          errorBody({ status: 500, type: 'api_error', message: `stand-in bug: ${String(error)}` }),
        );
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
      const { status, body, call } = answer(request, Buffer.concat(chunks).toString('utf8'));
      response.writeHead(status, {
        'content-type': 'application/json',
        'request-id': newId('req'),
        // Retrying cannot change a kept or refused outcome; the SDK would only wait for the same answer.
        ...(status >= 400 && { 'stripe-should-retry': 'false' }),
        ...(call.replayed && { 'idempotent-replayed': 'true' }),
        ...(call.idempotencyKey && { 'idempotency-key': call.idempotencyKey }),
      });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const event = (type: string, object: StripeObject, options: { livemode?: boolean } = {}): Stripe.Event =>
    ({
      id: newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: nowS(),
      data: { object: copy(object) },
      livemode: options.livemode ?? false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    }) as unknown as Stripe.Event;

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
    pay(sessionId, { fee, processing = false } = {}) {
      const session = find(sessionId, 'checkout.session');
      if (session.status !== 'open')
        throw new Error(`session ${sessionId} is ${String(session.status)}, not open`);
      const amount = Number(session.amount_total);
      const transaction = store({
        id: newId('txn'),
        object: 'balance_transaction',
        type: 'charge',
        amount,
        fee: fee ?? stripeFee(amount),
        net: amount - (fee ?? stripeFee(amount)),
        currency: 'usd',
        status: 'pending',
        created: nowS(),
      });
      const intentId = newId('pi');
      const charge = store({
        id: newId('ch'),
        object: 'charge',
        amount,
        amount_refunded: 0,
        refunded: false,
        currency: 'usd',
        paid: true,
        status: processing ? 'pending' : 'succeeded',
        payment_intent: intentId,
        balance_transaction: processing ? null : transaction.id,
        created: nowS(),
      });
      if (processing) clearing.set(charge.id, transaction.id);
      store({
        id: intentId,
        object: 'payment_intent',
        amount,
        currency: 'usd',
        status: processing ? 'processing' : 'succeeded',
        latest_charge: charge.id,
        metadata: intentMetadata.get(sessionId) ?? {},
        created: nowS(),
      });
      Object.assign(session, {
        status: 'complete',
        payment_status: processing ? 'unpaid' : 'paid',
        payment_intent: intentId,
        url: null,
      });
      return event('checkout.session.completed', session);
    },
    settleAsyncPayment(sessionId) {
      const session = find(sessionId, 'checkout.session');
      const intent = find(String(session.payment_intent), 'payment_intent');
      const charge = find(String(intent.latest_charge), 'charge');
      const transactionId = clearing.get(charge.id);
      if (!transactionId) throw new Error(`the payment of session ${sessionId} is not processing`);
      clearing.delete(charge.id);
      Object.assign(intent, { status: 'succeeded' });
      Object.assign(charge, { status: 'succeeded', balance_transaction: transactionId });
      Object.assign(session, { payment_status: 'paid' });
      return event('checkout.session.async_payment_succeeded', session);
    },
    expire(sessionId) {
      return event('checkout.session.expired', expireSession(sessionId));
    },
    completeOnboarding(accountId) {
      const account = find(accountId, 'account');
      Object.assign(account, {
        details_submitted: true,
        charges_enabled: true,
        payouts_enabled: true,
        capabilities: Object.fromEntries(
          Object.keys(account.capabilities as Record<string, unknown>).map((name) => [name, 'active']),
        ),
      });
      return event('account.updated', account);
    },
    event,
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
