import type { Event } from '@stagedoor/shared/events';
import { afterAll, describe, expect, inject, it, vi } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  getOk,
} from '../../test/factories';
import { startRedisServer } from '../../test/redis-server';
import { createTestApp, sameDeploymentAs } from '../../test/test-app';
import type { App } from '../app';
import { AnswerCache } from './catalogue';

describe('AnswerCache', () => {
  let clock = 0;
  const now = () => clock;

  it('keeps an answer for its maximum age, then reads it again', async () => {
    const cache = new AnswerCache(1000, 1e6, now);
    let reads = 0;
    const read = async () => `answer ${++reads}`;
    clock = 5000;
    expect((await cache.get('k', read)).body).toBe('answer 1');
    clock = 5999;
    expect((await cache.get('k', read)).body).toBe('answer 1');
    clock = 6001;
    expect((await cache.get('k', read)).body).toBe('answer 2');
  });

  it('shares one read between concurrent misses of a key', async () => {
    const cache = new AnswerCache(1000, 1e6, now);
    let reads = 0;
    const read = async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return 'answer';
    };
    const answers = await Promise.all(Array.from({ length: 20 }, () => cache.get('k', read)));
    expect(reads).toBe(1);
    expect(new Set(answers.map((answer) => answer.etag)).size).toBe(1);
  });

  it('never keeps a read that started before a clear', async () => {
    const cache = new AnswerCache(60_000, 1e6, now);
    let release: () => void = () => undefined;
    const slow = cache.get(
      'k',
      () => new Promise((resolve) => (release = () => resolve('before the change'))),
    );
    cache.clear();
    release();
    expect((await slow).body).toBe('before the change');
    expect((await cache.get('k', async () => 'after the change')).body).toBe('after the change');
  });

  it('keeps answers within its bytes, the least recently used going first', async () => {
    const cache = new AnswerCache(60_000, 10_000, now);
    const kB = 'x'.repeat(1000);
    for (let n = 0; n < 100; n += 1) await cache.get(`k${n}`, async () => kB);
    expect(cache.keptBytes).toBeLessThanOrEqual(10_000);
    expect(cache.keptBytes).toBeGreaterThan(8_000);
    let reads = 0;
    await cache.get('k99', async () => `${++reads}`);
    await cache.get('k0', async () => `${++reads}`);
    expect(reads).toBe(1);
  });

  it('never keeps an answer larger than all its bytes', async () => {
    const cache = new AnswerCache(60_000, 1000, now);
    expect((await cache.get('big', async () => 'x'.repeat(2000))).body).toHaveLength(2000);
    expect(cache.keptBytes).toBe(0);
  });

  it('drops an expired answer when its time is up, without being asked for it', async () => {
    const cache = new AnswerCache(50, 1e6);
    await cache.get('k', async () => 'answer');
    expect(cache.keptBytes).toBeGreaterThan(0);
    await vi.waitFor(() => expect(cache.keptBytes).toBe(0), { timeout: 10_000, interval: 20 });
  });

  it('tags equal answers with equal ETags and different ones with different ETags', async () => {
    const cache = new AnswerCache(0, 1e6, now);
    const [a, b, c] = await Promise.all(
      ['same', 'same', 'other'].map((body, n) => cache.get(`k${n}`, async () => body)),
    );
    expect(a?.etag).toBe(b?.etag);
    expect(a?.etag).not.toBe(c?.etag);
  });
});

/**
 * Two instances of one deployment behind a load balancer: on PostgreSQL, A and B share the database and
 * Redis; PGlite cannot be shared, so there B is A (the same guarantees, on one instance).
 */
async function deployment(cacheMs: number): Promise<{ a: App; b: App; close(): Promise<void> }> {
  const redis = await startRedisServer();
  const env = { REDIS_URL: redis.url, CATALOGUE_CACHE_MS: String(cacheMs) };
  const a = await createTestApp(env);
  const b =
    inject('databaseDriver') === 'postgres' ? await createTestApp({ ...sameDeploymentAs(a), ...env }) : a;
  return {
    a,
    b,
    async close() {
      if (b !== a) await b.close();
      await a.close();
      await redis.stop();
    },
  };
}

/**
 * Reads `url` on `app` until `isFresh` holds of the answer. A stale answer is allowed only from a
 * request that started less than `withinMs` after the change was answered (`changedAt`).
 */
async function expectVisibleWithin(
  app: App,
  url: string,
  changedAt: number,
  withinMs: number,
  isFresh: (status: number, body: unknown) => boolean,
): Promise<void> {
  for (;;) {
    const startedAt = performance.now();
    const response = await api(app, { method: 'GET', url });
    const body: unknown = response.statusCode === 200 ? response.json() : null;
    if (isFresh(response.statusCode, body)) return;
    expect(startedAt - changedAt, `${url} still answers ${response.body}`).toBeLessThan(withinMs);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('the catalogue cache, across instances', { timeout: 60_000 }, () => {
  describe('with answers kept for a minute: a change is visible within a second, everywhere', async () => {
    const { a, b, close } = await deployment(60_000);
    afterAll(close);

    /** Loads the answers on both instances, so that a stale copy is there to be served. */
    const warm = async (...urls: string[]) => {
      for (const app of [a, b]) for (const url of urls) await api(app, { method: 'GET', url });
    };

    it('an edit: the event and the list show its new name', async () => {
      const creator = await createCreator(a);
      const event = await createEvent(a, creator, { name: 'Before the edit' });
      const urls = [`/api/events/${event.id}`, '/api/events', `/api/events/creator/${creator.user.id}`];
      await warm(...urls);

      const response = await api(a, {
        method: 'POST',
        url: `/api/events/${event.id}`,
        headers: authHeader(creator.token),
        payload: { name: 'After the edit' },
      });
      expect(response.statusCode, response.body).toBe(200);
      const changedAt = performance.now();
      const named = (body: unknown) => JSON.stringify(body).includes('After the edit');
      // The instance that made the change answers the new name at once; the other within a second.
      await expectVisibleWithin(a, urls[0] ?? '', changedAt, 0, (status, body) => named(body));
      for (const app of [a, b]) {
        for (const url of urls)
          await expectVisibleWithin(app, url, changedAt, 1000, (status, body) => named(body));
      }
    });

    it('a cancellation: the event shows it, and leaves the list', async () => {
      const creator = await createCreator(a);
      const event = await createEvent(a, creator);
      await warm(`/api/events/${event.id}`, '/api/events');

      const response = await api(a, {
        method: 'POST',
        url: `/api/events/${event.id}/cancel`,
        headers: authHeader(creator.token),
      });
      expect(response.statusCode, response.body).toBe(200);
      const changedAt = performance.now();
      for (const app of [a, b]) {
        await expectVisibleWithin(app, `/api/events/${event.id}`, changedAt, 1000, (status, body) =>
          Boolean((body as Event).cancelledAt),
        );
        await expectVisibleWithin(app, '/api/events', changedAt, 1000, (status, body) =>
          (body as Event[]).every((listed) => listed.id !== event.id),
        );
      }
    });

    it('a deletion: the event answers 404 and leaves the creator page', async () => {
      const creator = await createCreator(a);
      const event = await createEvent(a, creator);
      const page = `/api/creators/${creator.user.nickname}/events`;
      await warm(`/api/events/${event.id}`, page);

      const response = await api(a, {
        method: 'DELETE',
        url: `/api/events/${event.id}`,
        headers: authHeader(creator.token),
      });
      expect(response.statusCode, response.body).toBe(204);
      const changedAt = performance.now();
      for (const app of [a, b]) {
        await expectVisibleWithin(
          app,
          `/api/events/${event.id}`,
          changedAt,
          1000,
          (status) => status === 404,
        );
        await expectVisibleWithin(
          app,
          page,
          changedAt,
          1000,
          (status, body) => (body as Event[]).length === 0,
        );
      }
    });

    it('a creator renamed: their page and their events show the new name', async () => {
      const creator = await createCreator(a);
      const event = await createEvent(a, creator);
      await warm(`/api/events/${event.id}`, `/api/creators/${creator.user.id}`);

      const response = await api(a, {
        method: 'PATCH',
        url: '/api/auth/profile/creator',
        headers: authHeader(creator.token),
        payload: { firstName: 'Renamed' },
      });
      expect(response.statusCode, response.body).toBe(200);
      const changedAt = performance.now();
      for (const app of [a, b]) {
        for (const url of [`/api/events/${event.id}`, `/api/creators/${creator.user.id}`]) {
          await expectVisibleWithin(app, url, changedAt, 1000, (status, body) =>
            JSON.stringify(body).includes('"firstName":"Renamed"'),
          );
        }
      }
    });

    it('shows its creator every event of theirs, fresh, and anyone else the public list', async () => {
      const creator = await createCreator(a);
      await createEvent(a, creator, { name: 'Public show' });
      const url = `/api/events/creator/${creator.user.id}`;
      await warm(url);
      await createEvent(a, creator, { name: 'Draft show', isActive: false });
      const own = await getOk<Event[]>(b, url, creator.token);
      expect(own.map((listed) => listed.name).sort()).toEqual(['Draft show', 'Public show']);
      const fan = await createUser(a);
      expect((await getOk<Event[]>(b, url, fan.token)).map((listed) => listed.name)).toEqual(['Public show']);
    });
  });

  describe('with the default second: a purchase shows in ticketsLeft within a second', async () => {
    const { a, b, close } = await deployment(1000);
    afterAll(close);

    it('on both instances', async () => {
      const creator = await createCreator(a);
      const event = await createEvent(a, creator, { maxTickets: 10 });
      const url = `/api/events/${event.id}`;
      for (const app of [a, b]) expect((await getOk<Event>(app, url)).ticketsLeft).toBe(10);

      await buyTicketsOk(b, await createUser(b), event.id, 3);
      const soldAt = performance.now();
      for (const app of [a, b]) {
        await expectVisibleWithin(
          app,
          url,
          soldAt,
          1000,
          (status, body) => (body as Event).ticketsLeft === 7,
        );
      }
    });
  });
});

describe('conditional reads', async () => {
  const app = await createTestApp();
  afterAll(() => app.close());

  it('answers 304 to the ETag of the current answer, and 200 once it changed', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const url = `/api/events/${event.id}`;
    const first = await api(app, { method: 'GET', url });
    const etag = String(first.headers.etag);
    expect(first.headers['cache-control']).toBe('no-cache');

    const unchanged = await api(app, { method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');

    await api(app, {
      method: 'POST',
      url,
      headers: authHeader(creator.token),
      payload: { name: 'A new name' },
    });
    const changed = await api(app, { method: 'GET', url, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.json<Event>().name).toBe('A new name');
    expect(changed.headers.etag).not.toBe(etag);
  });
});

describe('the catalogue cache, asked for many distinct URLs', async () => {
  const app = await createTestApp({ CATALOGUE_CACHE_MS: '60000' });
  afterAll(() => app.close());

  it('keeps one answer per route, parameters and validated query: fields it ignores add nothing', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const reads = (n: number) => [
      `/api/events?k=${n}`,
      `/api/events/${event.id}?k=${n}`,
      `/api/events/creator/${creator.user.id}?k=${n}`,
      `/api/creators/${creator.user.nickname}/events?k=${n}`,
    ];
    for (const url of reads(0)) await getOk(app, url);
    const keptForOne = app.catalogue.keptBytes;
    expect(keptForOne).toBeGreaterThan(0);
    for (let n = 1; n <= 200; n += 1) for (const url of reads(n)) await getOk(app, url);
    expect(app.catalogue.keptBytes).toBe(keptForOne);
    // A query the route does read is part of the key.
    await getOk(app, '/api/events?q=show');
    expect(app.catalogue.keptBytes).toBeGreaterThan(keptForOne);
  });
});
