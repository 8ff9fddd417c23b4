import { randomUUID } from 'node:crypto';
import type { AuthResponse, Role, SessionUser } from '@stagedoor/shared/accounts';
import type { CreateEventRequest, Event } from '@stagedoor/shared/events';
import { IDEMPOTENCY_KEY_HEADER, type Order } from '@stagedoor/shared/orders';
import { eq } from 'drizzle-orm';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App } from '../src/app';
import { events } from '../src/db/schema';

let requestCount = 0;

/**
 * Every request comes from its own address, so the per-IP limits (the same as in production) only
 * ever trip in the test that sets out to trip them.
 */
export function nextRemoteAddress(): string {
  requestCount += 1;
  return `10.${(requestCount >> 16) & 255}.${(requestCount >> 8) & 255}.${requestCount & 255}`;
}

export function api(app: App, options: InjectOptions): Promise<LightMyRequestResponse> {
  return app.inject({ remoteAddress: nextRemoteAddress(), ...options });
}

/** GETs what must answer 200 (as `token`'s account, or anonymously): its JSON body. */
export async function getOk<T>(app: App, url: string, token?: string): Promise<T> {
  const response = await api(app, { method: 'GET', url, headers: token ? authHeader(token) : {} });
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json<T>();
}

export function uniqueEmail(label = 'account'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}

export function authHeader(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export interface TestAccount {
  email: string;
  password: string;
  token: string;
  user: SessionUser;
}

interface AccountOverrides {
  firstName?: string;
  lastName?: string;
  email?: string;
  password?: string;
  /** The IANA zone the browser would send; UTC unless given. */
  timeZone?: string;
}

/** Registers through the API, as a visitor would. */
async function createAccount(app: App, role: Role, overrides: AccountOverrides = {}): Promise<TestAccount> {
  const input = {
    firstName: 'Test',
    lastName: role === 'creator' ? 'Creator' : 'Fan',
    email: uniqueEmail(role),
    password: 'correct-horse-battery',
    ...overrides,
  };
  const response = await api(app, { method: 'POST', url: `/api/auth/register/${role}`, payload: input });
  expect(response.statusCode, response.body).toBe(201);
  const { access_token, user } = response.json<AuthResponse>();
  return { email: user.email, password: input.password, token: access_token, user };
}

export const createCreator = (app: App, overrides?: AccountOverrides) =>
  createAccount(app, 'creator', overrides);
export const createUser = (app: App, overrides?: AccountOverrides) => createAccount(app, 'user', overrides);

export interface FormFile {
  data: Buffer;
  filename: string;
  type?: string;
}

/** A multipart/form-data body encoded the way a browser encodes a FormData, and its content type. */
export async function encodeForm(
  fields: Record<string, string>,
  files: Record<string, FormFile | FormFile[]> = {},
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, value] of Object.entries(files)) {
    for (const file of [value].flat()) {
      form.append(
        name,
        new Blob([file.data], { type: file.type ?? 'application/octet-stream' }),
        file.filename,
      );
    }
  }
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? '',
  };
}

/** POSTs a multipart/form-data body, encoded the way a browser encodes a FormData. */
export async function postForm(
  app: App,
  url: string,
  token: string,
  fields: Record<string, string>,
  files: Record<string, FormFile | FormFile[]> = {},
): Promise<LightMyRequestResponse> {
  const { body, contentType } = await encodeForm(fields, files);
  return api(app, {
    method: 'POST',
    url,
    headers: { ...authHeader(token), 'content-type': contentType },
    payload: body,
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** An ISO date `days` from now (negative: in the past). */
export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * DAY_MS).toISOString();
}

export type EventOverrides = Partial<Record<keyof CreateEventRequest, unknown>>;

/** A valid event form, as JSON. */
export function eventInput(overrides: EventOverrides = {}): Record<string, unknown> {
  return {
    name: 'Acoustic night',
    description: 'Songs from the new record, live.',
    price: 12.5,
    maxTickets: 100,
    date: daysFromNow(7),
    ...overrides,
  };
}

/** A valid event form, as the multipart text fields a browser sends. */
export function eventFormFields(overrides: EventOverrides = {}): Record<string, string> {
  return Object.fromEntries(
    Object.entries(eventInput(overrides)).map(([name, value]) => [name, String(value)]),
  );
}

/** Creates an event through the API, as its creator would (JSON, no image). */
export async function createEvent(
  app: App,
  creator: TestAccount,
  overrides: EventOverrides = {},
): Promise<Event> {
  const response = await api(app, {
    method: 'POST',
    url: '/api/events',
    headers: authHeader(creator.token),
    payload: eventInput(overrides),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Event>();
}

/** The event's first ticket type: what a purchase naming none buys. */
export function firstTicketTypeId(event: Pick<Event, 'ticketTypes'>): number {
  const [first] = event.ticketTypes;
  if (!first) throw new Error('an event has at least one ticket type');
  return first.id;
}

/**
 * Only time makes an event past, and no API call can: the test moves its date in the database, as the
 * passing days would.
 */
export async function moveEventDate(app: App, eventId: number, date: string): Promise<void> {
  await app.deps.db
    .update(events)
    .set({ date: new Date(date) })
    .where(eq(events.id, eventId));
}

export function buyTickets(
  app: App,
  buyer: TestAccount,
  eventId: number,
  quantity: number,
  idempotencyKey?: string,
): Promise<LightMyRequestResponse> {
  return api(app, {
    method: 'POST',
    url: '/api/orders',
    headers: {
      ...authHeader(buyer.token),
      ...(idempotencyKey && { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }),
    },
    payload: { eventId, quantity },
  });
}

/** Buys tickets that must be sold (201). */
export async function buyTicketsOk(
  app: App,
  buyer: TestAccount,
  eventId: number,
  quantity: number,
): Promise<Order> {
  const response = await buyTickets(app, buyer, eventId, quantity);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Order>();
}

/**
 * The tickets an event has left as stored, for tests of the stock itself: the public answer
 * (GET /api/events/{id}) may lag a purchase by CATALOGUE_CACHE_MS (see catalogue.test.ts).
 */
export async function storedTicketsLeft(app: App, eventId: number): Promise<number> {
  const [event] = await app.deps.db
    .select({ maxTickets: events.maxTickets, sold: events.sold })
    .from(events)
    .where(eq(events.id, eventId));
  if (!event) throw new Error(`event ${eventId} not found`);
  return event.maxTickets - event.sold;
}

interface TicketHolderOptions {
  /** The new fan's names (or email, password); the defaults otherwise. */
  fan?: AccountOverrides;
  /** Tickets the fan buys; 1 unless given. */
  quantity?: number;
}

interface TicketHolder {
  fan: TestAccount;
  event: Event;
  order: Order;
}

/**
 * A new fan who bought tickets to `event`, or, without one, to a new event of `creator` (a new
 * creator's unless given).
 */
export function ticketHolder(
  app: App,
  options: TicketHolderOptions & { event: Event },
): Promise<TicketHolder>;
export function ticketHolder(
  app: App,
  options?: TicketHolderOptions & { creator?: TestAccount },
): Promise<TicketHolder & { creator: TestAccount }>;
export async function ticketHolder(
  app: App,
  options: TicketHolderOptions & { event?: Event; creator?: TestAccount } = {},
): Promise<TicketHolder & { creator?: TestAccount }> {
  let { event, creator } = options;
  if (!event) {
    creator ??= await createCreator(app);
    event = await createEvent(app, creator);
  }
  const fan = await createUser(app, options.fan);
  const order = await buyTicketsOk(app, fan, event.id, options.quantity ?? 1);
  return { fan, event, order, ...(creator && { creator }) };
}

/**
 * A new event of `creator` (a new creator's unless given), made from `event`, and its sales: one new
 * fan for each entry of `sales` (one sale of 1 ticket unless given), who bought that many tickets.
 */
export async function eventWithSales<const Sales extends readonly number[] = readonly [1]>(
  app: App,
  options: { creator?: TestAccount; event?: EventOverrides; sales?: Sales } = {},
): Promise<{ creator: TestAccount; event: Event; fans: { -readonly [K in keyof Sales]: TestAccount } }> {
  const creator = options.creator ?? (await createCreator(app));
  const event = await createEvent(app, creator, options.event);
  const fans: TestAccount[] = [];
  for (const quantity of options.sales ?? [1]) fans.push((await ticketHolder(app, { event, quantity })).fan);
  return { creator, event, fans: fans as { -readonly [K in keyof Sales]: TestAccount } };
}
