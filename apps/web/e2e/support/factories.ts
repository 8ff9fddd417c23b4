import type { AuthResponse, Role, SessionUser } from '@stagedoor/shared/accounts';
import type { Event } from '@stagedoor/shared/events';
import type { Order } from '@stagedoor/shared/orders';
import type { APIRequestContext } from 'playwright-core';
import { expect } from 'vitest';
import { PASSWORD, POSTER_PNG, person, type Person } from './fixtures';

/**
 * The world a journey starts from, built through the real API and each part building its parents: a
 * ticket holder comes with an event, an event with its creator. Journeys test their screens, not this.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

export function authorized(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** A registered person and their session (what `newVisitor`'s `signedInAs` takes). */
export type Account = Person & { token: string; user: SessionUser };

/** Registers through the API, for journeys that need an account but not its screens. */
export async function registerByApi(request: APIRequestContext, role: Role, who: Person): Promise<Account> {
  const response = await request.post(`/api/auth/register/${role}`, { data: { ...who, password: PASSWORD } });
  expect(response.status(), await response.text()).toBe(201);
  const { access_token, user } = (await response.json()) as AuthResponse;
  return { ...who, token: access_token, user };
}

/** Buys tickets through the API as `buyer`: they are sold and paid (201, completed), or the journey fails. */
export async function buyTickets(
  request: APIRequestContext,
  buyer: { token: string },
  eventId: number,
  quantity = 1,
): Promise<Order> {
  const response = await request.post('/api/orders', {
    headers: authorized(buyer.token),
    data: { eventId, quantity },
  });
  expect(response.status(), await response.text()).toBe(201);
  const order = (await response.json()) as Order;
  expect(order.status, `order ${order.id}`).toBe('completed');
  return order;
}

/** An event as the API answered its creation, its creator, and the fans the factory sold to. */
interface EventWithSales {
  event: Event;
  creator: Account;
  buyers: Account[];
}

interface EventOptions {
  /** Registered (Cleo Creator) if not given. */
  creator?: Account;
  name?: string;
  description?: string;
  price?: number;
  maxTickets?: number;
  /** A week from now if not given. */
  date?: Date;
  /** Fans to register, each buying one ticket (none if not given). */
  sales?: number;
}

/**
 * An active event created through the API as its creator's form sends it (multipart, with a poster),
 * by `creator` or one registered for it, and `sales` tickets sold to fans it registers.
 */
export async function eventWithSales(
  request: APIRequestContext,
  { creator, sales = 0, ...fields }: EventOptions = {},
): Promise<EventWithSales> {
  const host = creator ?? (await registerByApi(request, 'creator', person('Cleo', 'Creator')));
  const response = await request.post('/api/events', {
    headers: authorized(host.token),
    multipart: {
      name: fields.name ?? `Show ${Date.now().toString(36)}`,
      description: fields.description ?? 'Songs from the new record, played live.',
      price: String(fields.price ?? 10),
      maxTickets: String(fields.maxTickets ?? 50),
      date: (fields.date ?? new Date(Date.now() + 7 * DAY_MS)).toISOString(),
      image: POSTER_PNG,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const event = (await response.json()) as Event;
  const buyers: Account[] = [];
  for (let index = 0; index < sales; index += 1) {
    buyers.push((await ticketHolder(request, { event, fan: person('Fabio', `Fan${index}`) })).fan);
  }
  return { event, creator: host, buyers };
}

/**
 * A fan (registered as `fan`) with a completed purchase of `quantity` tickets to `event`, which is
 * built with its creator if not given.
 */
export async function ticketHolder(
  request: APIRequestContext,
  {
    event,
    fan = person('Fabio', 'Fan'),
    quantity = 1,
  }: { event?: Event; fan?: Person; quantity?: number } = {},
): Promise<{ fan: Account; event: Event; order: Order }> {
  const show = event ?? (await eventWithSales(request)).event;
  const holder = await registerByApi(request, 'user', fan);
  return { fan: holder, event: show, order: await buyTickets(request, holder, show.id, quantity) };
}
