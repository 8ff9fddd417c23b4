import type { APIRequestContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { eventWithSales, registerByApi, type Account } from './factories';
import { person } from './fixtures';
import { framesAdvance } from './live-pages';

const HOUR_MS = 60 * 60 * 1000;

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
export async function liveShow(request: APIRequestContext, fans = 1): Promise<Show> {
  const { event, creator, buyers } = await eventWithSales(request, {
    creator: await registerByApi(request, 'creator', person('Lena', 'Live')),
    name: `Live Room ${Date.now().toString(36)}`,
    description: 'A show streamed from the browser.',
    price: 3,
    maxTickets: 30,
    date: new Date(Date.now() + HOUR_MS),
    sales: fans,
  });
  const stranger = await registerByApi(request, 'user', person('Sid', 'Stranger'));
  const [fan] = buyers;
  if (!fan) throw new Error('a show needs at least one fan');
  return { eventId: event.id, creator, fans: buyers, fan, stranger };
}

/** The main video shows a picture, and new frames keep coming. */
export async function expectPlaying(page: Page, timeout = 20_000): Promise<void> {
  await expect.poll(() => framesAdvance(page), { timeout }).toBe(true);
}
