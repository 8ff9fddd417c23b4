import { randomBytes } from 'node:crypto';
import type { ErrorBody } from '@stagedoor/shared/errors';
import type { Event } from '@stagedoor/shared/events';
import { EVENT_SEARCH_MAX_WORDS } from '@stagedoor/shared/limits';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  createCreator,
  createEvent,
  daysFromNow,
  getOk,
  type EventOverrides,
  type TestAccount,
} from '../../../test/factories';
import { healthDuringFlood, percentile } from '../../../test/flood';
import { listen } from '../../../test/live-clients';
import { createTestApp } from '../../../test/test-app';
import { EVENTS_PER_CREATOR } from './events.routes';

const app = await createTestApp();
const baseUrl = await listen(app);
afterAll(() => app.close());

/**
 * A word no other test's events hold: every search below includes the test's own tag, so the events
 * of the other tests in this database never match.
 */
const newTag = () => `tag${randomBytes(5).toString('hex')}`;

const search = (query: Record<string, string>) => `/api/events?${new URLSearchParams(query).toString()}`;

async function found(query: Record<string, string>): Promise<string[]> {
  return (await getOk<Event[]>(app, search(query))).map((event) => event.name);
}

async function refused(query: Record<string, string>): Promise<ErrorBody['fields']> {
  const response = await api(app, { method: 'GET', url: search(query) });
  expect(response.statusCode, response.body).toBe(400);
  return response.json<ErrorBody>().fields;
}

let eventsCreated = 0;

/** Events of one creator, each an hour after the one created before it, so each list's order is known. */
async function createEvents(creator: TestAccount, events: EventOverrides[]): Promise<void> {
  for (const overrides of events) {
    eventsCreated += 1;
    await createEvent(app, creator, { date: daysFromNow(10 + eventsCreated / 24), ...overrides });
  }
}

describe('GET /api/events?q', () => {
  it("finds every word in the name, description or creator's name or nickname, whatever the case or accents", async () => {
    const tag = newTag();
    await createEvents(await createCreator(app), [
      { name: `Café concert ${tag}`, description: 'Songs.' },
      // Accents typed as separate combining marks (e + U+0300), as some keyboards send them.
      { name: `Dessert ${tag}`, description: 'Cre\u0300me bru\u0302le\u0301e for all.' },
      { name: `Sky ${tag}`, description: 'Under the ÉTOILES.' },
    ]);
    await createEvents(await createCreator(app, { firstName: 'Zoë', lastName: 'Brontë' }), [
      { name: `Reading ${tag}` },
    ]);
    const pianist = await createCreator(app, { firstName: 'Plain', lastName: 'Person' });
    const renamed = await api(app, {
      method: 'PATCH',
      url: '/api/auth/profile/creator',
      headers: authHeader(pianist.token),
      payload: { nickname: `keys-${tag}` },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await createEvents(pianist, [{ name: `Recital ${tag}` }]);

    expect(await found({ q: tag })).toEqual([
      `Café concert ${tag}`,
      `Dessert ${tag}`,
      `Sky ${tag}`,
      `Reading ${tag}`,
      `Recital ${tag}`,
    ]);
    expect(await found({ q: `cafe ${tag}` })).toEqual([`Café concert ${tag}`]);
    expect(await found({ q: `  CAFÉ   ${tag.toUpperCase()} ` })).toEqual([`Café concert ${tag}`]);
    expect(await found({ q: `crème brûlée ${tag}` })).toEqual([`Dessert ${tag}`]);
    expect(await found({ q: `étoiles ${tag}` })).toEqual([`Sky ${tag}`]);
    expect(await found({ q: `zoe bronte ${tag}` })).toEqual([`Reading ${tag}`]);
    expect(await found({ q: `keys-${tag}` })).toEqual([`Recital ${tag}`]);
    expect(await found({ q: `cafe reading ${tag}` }), 'every word must match').toEqual([]);
  });

  it("takes LIKE's wildcards and escape character literally", async () => {
    const tag = newTag();
    await createEvents(await createCreator(app), [
      { name: `100% vinyl ${tag}` },
      { name: `1000 vinyls ${tag}` },
      { name: `snake_case ${tag}` },
      { name: `back\\slash ${tag}` },
    ]);

    expect(await found({ q: `100% ${tag}` })).toEqual([`100% vinyl ${tag}`]);
    expect(await found({ q: `_ ${tag}` })).toEqual([`snake_case ${tag}`]);
    expect(await found({ q: `k\\s ${tag}` })).toEqual([`back\\slash ${tag}`]);
  });

  it('treats a blank q as no search', async () => {
    await createEvents(await createCreator(app), [{ name: `Anything ${newTag()}` }]);
    const all = await found({ limit: '100' });
    expect(all.length).toBeGreaterThan(0);
    expect(await found({ q: '   ', limit: '100' })).toEqual(all);
  });
});

describe('GET /api/events?from&to&maxPrice', () => {
  it('keeps the events dated within [from, to], a date alone meaning the whole UTC day', async () => {
    const tag = newTag();
    const day = daysFromNow(30).slice(0, 10);
    const dayBefore = new Date(Date.parse(day) - 1).toISOString();
    const dayAfter = new Date(Date.parse(day) + 24 * 60 * 60 * 1000).toISOString();
    await createEvents(await createCreator(app), [
      { name: `Late eve ${tag}`, date: dayBefore },
      { name: `Midnight ${tag}`, date: `${day}T00:00:00.000Z` },
      { name: `Last minute ${tag}`, date: `${day}T23:59:59.999Z` },
      { name: `Next day ${tag}`, date: dayAfter },
    ]);

    expect(await found({ q: tag, from: day, to: day })).toEqual([`Midnight ${tag}`, `Last minute ${tag}`]);
    expect(await found({ q: tag, from: day })).toEqual([
      `Midnight ${tag}`,
      `Last minute ${tag}`,
      `Next day ${tag}`,
    ]);
    expect(await found({ q: tag, to: day })).toEqual([
      `Late eve ${tag}`,
      `Midnight ${tag}`,
      `Last minute ${tag}`,
    ]);
    // Instants with an offset are taken as they are, both ends included: 02:00+02:00 is midnight UTC.
    expect(await found({ q: tag, from: `${day}T02:00:00+02:00`, to: dayAfter })).toEqual([
      `Midnight ${tag}`,
      `Last minute ${tag}`,
      `Next day ${tag}`,
    ]);
  });

  it('keeps the events priced at most maxPrice dollars, and combines with the other filters and paging', async () => {
    const tag = newTag();
    await createEvents(await createCreator(app), [
      { name: `Free ${tag}`, price: 0 },
      { name: `Cheap jazz ${tag}`, price: 12.5 },
      { name: `Cent more ${tag}`, price: 12.51 },
      { name: `Dear jazz ${tag}`, price: 30 },
      { name: `Later jazz ${tag}`, price: 5, date: daysFromNow(40) },
    ]);

    expect(await found({ q: tag, maxPrice: '12.5' })).toEqual([
      `Free ${tag}`,
      `Cheap jazz ${tag}`,
      `Later jazz ${tag}`,
    ]);
    expect(await found({ q: tag, maxPrice: '0' })).toEqual([`Free ${tag}`]);
    const jazzUnder20BeforeDay30 = { q: `jazz ${tag}`, maxPrice: '20', to: daysFromNow(30) };
    expect(await found(jazzUnder20BeforeDay30)).toEqual([`Cheap jazz ${tag}`]);
    expect(await found({ q: `jazz ${tag}`, limit: '1', offset: '1' })).toEqual([`Dear jazz ${tag}`]);
  });

  it('refuses a malformed search, naming each field', async () => {
    expect(await refused({ q: 'x'.repeat(101), from: '2030-02-30', to: 'tomorrow', maxPrice: '-1' })).toEqual(
      {
        q: 'q must be at most 100 characters',
        from: 'from must be a date (YYYY-MM-DD) or a date and time with its offset',
        to: 'to must be a date (YYYY-MM-DD) or a date and time with its offset',
        maxPrice: 'maxPrice must be 0 or more',
      },
    );
    expect(await refused({ maxPrice: 'cheap' })).toEqual({ maxPrice: 'maxPrice must be a number' });
    expect(await refused({ maxPrice: '9.999' })).toEqual({
      maxPrice: 'maxPrice can have at most two decimals',
    });
    expect(await refused({ from: '2030-01-02', to: '2030-01-01' })).toEqual({
      to: 'to must not be before from',
    });
    expect(await refused({ from: '2030-01-01T10:00:00Z', to: '2030-01-01T09:59:59Z' })).toEqual({
      to: 'to must not be before from',
    });
    expect(await found({ from: '2030-01-01', to: '2030-01-01T00:00:00Z' })).toEqual([]);
  });
});

describe('GET /api/events?q, as a hostile client asks it', () => {
  it(`refuses more than ${EVENT_SEARCH_MAX_WORDS} words, with q named`, async () => {
    const words = Array.from({ length: 50 }, (_, n) => String.fromCharCode(97 + (n % 26))).join(' ');
    expect(await refused({ q: words })).toEqual({ q: `q must have at most ${EVENT_SEARCH_MAX_WORDS} words` });
    expect(await found({ q: words.slice(0, 2 * EVENT_SEARCH_MAX_WORDS - 1) })).toBeInstanceOf(Array);
  });

  it('answers the costliest search it takes within a second, and health meanwhile', async () => {
    let creator = await createCreator(app);
    // 100 events with the longest descriptions, every one of them matched by each word's first letters.
    const description = 'abcdefgh '.repeat(555).slice(0, 5000);
    for (let n = 0; n < 100; n += 1) {
      if (n % EVENTS_PER_CREATOR.max === 0) creator = await createCreator(app);
      await createEvents(creator, [{ name: `Long ${n}`, description }]);
    }
    // Eight one-letter words, none of them found together, each search distinct (none from the cache).
    const costliest = 'a b c d e f g z';
    const { statuses, healthMs } = await healthDuringFlood(
      baseUrl,
      { method: 'GET', path: `/api/events?q=${encodeURIComponent(costliest)}&offset={n}` },
      { clients: 2 },
    );
    // Before the stored search text, one such search over these events held PGlite for seconds.
    expect(percentile(healthMs, 0.5)).toBeLessThan(500);
    expect(Object.keys(statuses)).toEqual(['200']);
    const startedAt = performance.now();
    await getOk(app, search({ q: costliest, offset: '1000000' }));
    expect(performance.now() - startedAt).toBeLessThan(1000);
  });
});
