import type { APIRequestContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { person, registerByApi, type Person } from './fixtures';
import { framesAdvance } from './live-pages';

const HOUR_MS = 60 * 60 * 1000;

export type Account = Person & { token: string; user: { id: number } };

async function account(request: APIRequestContext, role: 'creator' | 'user', who: Person): Promise<Account> {
  return { ...who, ...(await registerByApi(request, role, who)) };
}

export interface Show {
  eventId: number;
  creator: Account;
  /** Each holds one ticket. */
  fans: Account[];
  /** The first of them. */
  fan: Account;
  /** Holds none. */
  stranger: Account;
}

/** A creator with an active event an hour from now, `fans` (at least 1) ticket holders and a spectator without one. */
export async function setUpShow(request: APIRequestContext, fans = 1): Promise<Show> {
  const creator = await account(request, 'creator', person('Lena', 'Live'));
  const event = await request.post('/api/events', {
    headers: { authorization: `Bearer ${creator.token}` },
    data: {
      name: `Live Room ${Date.now().toString(36)}`,
      description: 'A show streamed from the browser.',
      price: 3,
      maxTickets: 30,
      date: new Date(Date.now() + HOUR_MS).toISOString(),
    },
  });
  expect(event.status()).toBe(201);
  const eventId = ((await event.json()) as { id: number }).id;
  const holders: Account[] = [];
  for (let index = 0; index < fans; index += 1) {
    const fan = await account(request, 'user', person('Fabio', `Fan${index}`));
    const order = await request.post('/api/orders', {
      headers: { authorization: `Bearer ${fan.token}` },
      data: { eventId, quantity: 1 },
    });
    expect(order.status()).toBe(201);
    holders.push(fan);
  }
  const stranger = await account(request, 'user', person('Sid', 'Stranger'));
  const [fan] = holders;
  if (!fan) throw new Error('a show needs at least one fan');
  return { eventId, creator, fans: holders, fan, stranger };
}

/** The main video shows a picture, and new frames keep coming. */
export async function expectPlaying(page: Page, timeout = 20_000): Promise<void> {
  await expect.poll(() => framesAdvance(page), { timeout }).toBe(true);
}
