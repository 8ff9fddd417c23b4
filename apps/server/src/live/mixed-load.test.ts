import { afterAll, expect, it } from 'vitest';
import { authHeader, createCreator, createEvent, createUser, ticketHolder } from '../../test/factories';
import { healthDuringFlood, percentile } from '../../test/flood';
import { startChatters } from '../../test/chatters';
import { listen } from '../../test/live-clients';
import { createTestApp } from '../../test/test-app';

const app = await createTestApp();
const url = await listen(app);
afterAll(() => app.close());

/**
 * Issue 21's mixed load, scaled to a test on a shared machine (the bench runs the full shape: 300
 * sockets at 20 messages a second and 50 readers, see bench/hostile.ts): a crowd in one show's chat,
 * the catalogue read without pause, and a ticket sold every second. The issue measured health waiting
 * 10 s and 147 of 152 catalogue reads timing out on the embedded database; re-measured on the code
 * before it at the full shape, that did not reproduce (decision 0032), so this test guards the bound.
 */
const MIXED = { fans: 100, messagesPerSecond: 10, readers: 20, seconds: 10 };

/** Buys one ticket of the show every second, each by a new account, until `stopped()`. */
async function sellEverySecond(eventId: number, stopped: () => boolean): Promise<number[]> {
  const statuses: number[] = [];
  while (!stopped()) {
    const startedAt = performance.now();
    const buyer = await createUser(app);
    const response = await fetch(`${url}/api/orders`, {
      method: 'POST',
      headers: { ...authHeader(buyer.token), 'content-type': 'application/json' },
      body: JSON.stringify({ eventId, quantity: 1 }),
    });
    statuses.push(response.status);
    await response.arrayBuffer();
    // The load's pace, not a wait for something to happen.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1000 - (performance.now() - startedAt))));
  }
  return statuses;
}

it('keeps health answered, every catalogue read and every chat message while a crowd chats, the catalogue is read and tickets sell', async () => {
  const creator = await createCreator(app);
  const show = await createEvent(app, creator, { name: 'The crowded show', maxTickets: 1000 });
  for (let n = 0; n < 20; n += 1) await createEvent(app, creator, { name: `Another show ${n}` });
  const fans = [];
  // Ten at a time: each fan's password is hashed on the thread pool.
  for (let n = 0; n < MIXED.fans; n += 10) {
    const holders = await Promise.all(Array.from({ length: 10 }, () => ticketHolder(app, { event: show })));
    fans.push(...holders.map((holder) => holder.fan));
  }

  const chat = await startChatters(
    url,
    fans.map((fan) => fan.token),
    show.id,
    MIXED.messagesPerSecond,
  );
  let loading = true;
  const sales = sellEverySecond(show.id, () => !loading);
  const { statuses, healthMs } = await healthDuringFlood(
    url,
    { method: 'GET', path: '/api/events?limit=20' },
    { clients: MIXED.readers, durationMs: MIXED.seconds * 1000 },
  );
  loading = false;
  const sold = await sales;
  const talked = await chat.stop();

  // Every catalogue read answered (none timed out after 10 s), every ticket sold, every message
  // accepted and delivered to each of the crowd, nobody cut.
  expect(Object.keys(statuses)).toEqual(['200']);
  expect(sold.length).toBeGreaterThanOrEqual(MIXED.seconds / 2);
  expect(new Set(sold)).toEqual(new Set([201]));
  expect(talked).toMatchObject({ sockets: MIXED.fans, refused: 0, disconnected: 0 });
  expect(talked.accepted).toBeGreaterThanOrEqual((MIXED.seconds * MIXED.messagesPerSecond) / 2);
  expect(talked.delivered).toBe(talked.expected);
  // The bench's target is 500 ms on an idle machine; a test shares its machine with other suites.
  expect(percentile(healthMs, 0.95)).toBeLessThan(1000);
  // A hundred accounts to set up and 10 s of load: beside another copy of the suite, over a minute.
}, 180_000);
