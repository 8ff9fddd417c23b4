import type { SessionUser } from '@stagedoor/shared/accounts';
import type { PublicCreator } from '@stagedoor/shared/creators';
import { DEFAULT_TICKET_TYPE_NAME, type Event, type TicketType } from '@stagedoor/shared/events';
import { PAGE_DEFAULT } from '@stagedoor/shared/limits';
import type { Order } from '@stagedoor/shared/orders';
import { vi } from 'vitest';

type Reply = {
  status?: number;
  body?: unknown;
  /** A body of another type than JSON (a CSV file), sent as the text it is. */
  contentType?: string;
};
export type ApiCall = {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
};
export type Handler = Reply | ((call: ApiCall) => Reply | Promise<Reply>);

/**
 * Replaces `fetch` with a fake API keyed by "METHOD /path" (without the /api prefix, and without the
 * query, which a handler function reads from its call). Anything not listed answers 404 the way the
 * real server does. Returns the calls made, for assertions.
 */
export function stubApi(handlers: Record<string, Handler>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      const path = url.pathname.replace(/^\/api/, '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      const call = { method, path, query: url.searchParams, headers: new Headers(init.headers), body };
      calls.push(call);

      const handler = handlers[`${method} ${path}`];
      const reply = typeof handler === 'function' ? await handler(call) : handler;
      const {
        status = 200,
        body: answer,
        contentType,
      } = reply ?? {
        status: 404,
        body: { statusCode: 404, code: 'NOT_FOUND', message: 'Not found' },
      };
      if (contentType) {
        return new Response(String(answer), { status, headers: { 'Content-Type': contentType } });
      }
      return new Response(answer === undefined ? null : JSON.stringify(answer), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

/**
 * An answer the test sends when it chooses, with `send`: the page may have asked already or ask later
 * (an answer kept in the handler's call would be lost if the test sent it before the page asked).
 */
export function heldReply(): { handler: Handler; send: (reply: Reply) => void } {
  let send: (reply: Reply) => void = () => {};
  const reply = new Promise<Reply>((resolve) => (send = resolve));
  return { handler: () => reply, send };
}

/**
 * A list the API serves a page at a time, as the server does: `limit` rows (50 unless asked) after the
 * first `offset` of `rows`, which are in the order the endpoint lists them.
 */
export function pagesOf(rows: readonly unknown[]): Handler {
  return ({ query }) => {
    const limit = Number(query.get('limit') ?? PAGE_DEFAULT);
    const offset = Number(query.get('offset') ?? 0);
    return { body: rows.slice(offset, offset + limit) };
  };
}

export function aUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 7,
    email: 'ada@example.com',
    role: 'user',
    firstName: 'Ada',
    lastName: 'Lovelace',
    nickname: 'ada',
    biography: null,
    headerImageUrl: null,
    profileImageUrl: null,
    timeZone: 'UTC',
    ...overrides,
  };
}

export function aCreator(overrides: Partial<SessionUser> = {}): SessionUser {
  return aUser({
    id: 3,
    email: 'grace@example.com',
    role: 'creator',
    firstName: 'Grace',
    lastName: 'Hopper',
    nickname: 'grace',
    ...overrides,
  });
}

/** A stored session the app will find on start, and the verify-token answer that confirms it. */
export function signedInAs(user: SessionUser): Record<string, Handler> {
  localStorage.setItem('token', 'stored-token');
  localStorage.setItem('user', JSON.stringify(user));
  return { 'GET /auth/verify-token': { body: { valid: true, user } } };
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** An ISO instant `days` from now (negative for the past). */
export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * DAY_MS).toISOString();
}

/** An ISO instant `hours` from now (negative for the past). */
export function hoursFromNow(hours: number): string {
  return daysFromNow(hours / 24);
}

/** A ticket type as an event presents it: General admission at $25, 60 of 100 left, on sale throughout. */
export function aTicketType(overrides: Partial<TicketType> = {}): TicketType {
  return {
    id: 40,
    name: DEFAULT_TICKET_TYPE_NAME,
    price: 25,
    maxTickets: 100,
    ticketsLeft: 60,
    salesStart: null,
    salesEnd: null,
    payWhatYouWant: null,
    ...overrides,
  };
}

/**
 * An event as the API presents it: Grace's, active, a week ahead, no limit per buyer. Without types of
 * its own it sells one, General admission, at its price and stock.
 */
export function anEvent(overrides: Partial<Event> = {}): Event {
  const date = overrides.date ?? daysFromNow(7);
  const maxTickets = overrides.maxTickets ?? 100;
  const price = overrides.price ?? 25;
  const ticketsLeft = overrides.ticketsLeft ?? 60;
  return {
    id: 4,
    name: 'Jazz Night',
    description: 'An evening of standards.',
    image: 'jazz.png',
    price,
    maxTickets,
    // The API presents an event without a limit of its own with maxTickets as its limit.
    maxPerBuyer: maxTickets,
    ticketsLeft,
    date,
    eventDate: date,
    isActive: true,
    cancelledAt: null,
    replayEnabled: true,
    hasReplay: false,
    creatorId: 3,
    creator: { nickname: 'grace', firstName: 'Grace', lastName: 'Hopper', timeZone: 'UTC' },
    ticketTypes: [aTicketType({ price, maxTickets, ticketsLeft })],
    ...overrides,
  };
}

/** A completed order of two tickets to Jazz Night. */
export function anOrder(overrides: Partial<Order> = {}): Order {
  return {
    id: 11,
    status: 'completed',
    quantity: 2,
    unitPrice: 25,
    totalAmount: 50,
    createdAt: daysFromNow(-1),
    checkoutUrl: null,
    expiresAt: null,
    refundStatus: null,
    givenTo: null,
    giftFrom: null,
    ticketType: DEFAULT_TICKET_TYPE_NAME,
    promoCode: null,
    discount: 0,
    event: { id: 4, name: 'Jazz Night', image: 'jazz.png', date: daysFromNow(7), hasReplay: false },
    ...overrides,
  };
}

export function aPublicCreator(overrides: Partial<PublicCreator> = {}): PublicCreator {
  return {
    id: 3,
    nickname: 'grace',
    firstName: 'Grace',
    lastName: 'Hopper',
    creatorInfo: { headerImageUrl: null, profileImageUrl: null, biography: 'Compilers and COBOL.' },
    ...overrides,
  };
}
