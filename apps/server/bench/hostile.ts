import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { createDatabase } from '../src/db/database';
import { accounts, events } from '../src/db/schema';
import { hashPassword } from '../src/modules/accounts/passwords';
import { signAccessToken } from '../src/modules/accounts/tokens';
import { freePort } from '../test/free-port';
import { healthDuringFlood, percentile, startSocketFlood, type SocketFloodFigures } from '../test/flood';
import { startChatters, type ChatFigures } from './chatters';
import { startProcess } from './processes';
import { CROWD_ENV } from './seed';

/** Distinct catalogue URLs the memory probe asks for, as the attack that once filled the cache did. */
export const DISTINCT_URLS = 5_000;
/** The events the hostile server holds: each with a description of the longest allowed (5,000 characters). */
const LONG_EVENTS = 400;
export const FLOOD_SECONDS = 15;
export const FLOOD_CLIENTS = 4;

export interface HealthFigures {
  p50ms: number;
  p95ms: number;
  maxMs: number;
  answers: number;
}

export interface HostileFigures {
  socketFlood: { health: HealthFigures; attack: SocketFloodFigures };
  mixed: { withoutPurchases: MixedFigures; withPurchases: MixedFigures };
  rss: { beforeMB: number; afterMB: number };
  searches: { query: string; status: number; ms: number }[];
  deepJson: { baseline: HealthFigures; flood: HealthFigures; statuses: Record<string, number> };
}

const healthOf = (healthMs: number[]): HealthFigures => ({
  p50ms: Math.round(percentile(healthMs, 0.5)),
  p95ms: Math.round(percentile(healthMs, 0.95)),
  maxMs: Math.round(Math.max(...healthMs)),
  answers: healthMs.length,
});

/** Fans in the mixed load's chat (each holds a ticket), and the buyers of its purchase a second. */
const CHATTING_FANS = 300;
const BUYERS = 100;

interface HostileSeed {
  creatorId: number;
  showId: number;
  fanIds: number[];
  buyerIds: number[];
}

/**
 * One creator with LONG_EVENTS events of the longest descriptions, the show of the mixed load, and its
 * fans and buyers, written before the server opens the database.
 */
async function seedHostile(dataDir: string, jwtSecret: string): Promise<HostileSeed> {
  const { database } = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: jwtSecret });
  const handle = await createDatabase(database);
  try {
    const [creator] = await handle.db
      .insert(accounts)
      .values({
        email: 'creator@hostile.test',
        passwordHash: await hashPassword('hostile-bench'),
        role: 'creator' as const,
        firstName: 'Many',
        lastName: 'Events',
        nickname: 'many-events',
      })
      .returning({ id: accounts.id });
    if (!creator) throw new Error('no creator seeded');
    const passwordHash = await hashPassword('hostile-bench');
    const people = await handle.db
      .insert(accounts)
      .values(
        Array.from({ length: CHATTING_FANS + BUYERS }, (_, n) => ({
          email: `fan-${n}@hostile.test`,
          passwordHash,
          role: 'user' as const,
          firstName: 'Fan',
          lastName: String(n),
          nickname: `fan${n}`,
        })),
      )
      .returning({ id: accounts.id });
    const [show] = await handle.db
      .insert(events)
      .values({
        creatorId: creator.id,
        name: 'The crowded show',
        description: 'Everyone is talking.',
        priceCents: 1000,
        maxTickets: 10_000,
        maxPerBuyer: 1_000,
        date: new Date(Date.now() + 2 * 24 * 3600_000),
      })
      .returning({ id: events.id });
    if (!show) throw new Error('no show seeded');
    const description = 'abcdefgh '.repeat(556).slice(0, 5000);
    await handle.db.insert(events).values(
      Array.from({ length: LONG_EVENTS }, (_, n) => ({
        creatorId: creator.id,
        name: `Long show ${n}`,
        description,
        priceCents: 1500,
        maxTickets: 100,
        date: new Date(Date.now() + (n + 1) * 3600_000),
      })),
    );
    const ids = people.map((person) => person.id);
    return {
      creatorId: creator.id,
      showId: show.id,
      fanIds: ids.slice(0, CHATTING_FANS),
      buyerIds: ids.slice(CHATTING_FANS),
    };
  } finally {
    await handle.close();
  }
}

/** One ticket of the show for the token's account: 201, or the bench stops. */
async function buy(base: string, token: string, eventId: number): Promise<void> {
  const response = await fetch(`${base}/api/orders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ eventId, quantity: 1 }),
  });
  if (response.status !== 201)
    throw new Error(`a purchase answered ${response.status}: ${await response.text()}`);
}

/** The mixed load's shape (issue 21's probe): a crowd chatting, the catalogue read, about a purchase a second. */
export const MIXED = { sockets: CHATTING_FANS, messagesPerSecond: 20, readers: 50, seconds: 30 };

export interface MixedFigures {
  health: HealthFigures;
  reads: Record<string, number>;
  chat: ChatFigures;
  purchases: { answered: Record<string, number> } | null;
}

/**
 * MIXED.sockets fans in the show's chat sending MIXED.messagesPerSecond messages between them (each
 * delivered to all), MIXED.readers connections reading the catalogue without pause, and with `buyers`
 * one purchase a second, for MIXED.seconds while health is timed.
 */
async function mixedLoad(
  base: string,
  fanTokens: string[],
  eventId: number,
  buyers: string[] | null,
): Promise<MixedFigures> {
  const chat = await startChatters(base, fanTokens, eventId, MIXED.messagesPerSecond);
  const answered: Record<string, number> = {};
  let buying = buyers !== null;
  const purchases = (async () => {
    for (let n = 0; buying && buyers; n += 1) {
      const startedAt = performance.now();
      const status = await buy(base, buyers[n % buyers.length] as string, eventId).then(
        () => '201',
        (error: unknown) => String(error).slice(0, 60),
      );
      answered[status] = (answered[status] ?? 0) + 1;
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, 1000 - (performance.now() - startedAt))),
      );
    }
  })();
  const { statuses, healthMs } = await healthDuringFlood(
    base,
    { method: 'GET', path: '/api/events?limit=20' },
    { clients: MIXED.readers, durationMs: MIXED.seconds * 1000 },
  );
  buying = false;
  await purchases;
  return {
    health: healthOf(healthMs),
    reads: statuses,
    chat: await chat.stop(),
    purchases: buyers ? { answered } : null,
  };
}

/** GETs every URL, `inFlight` at a time. */
async function getAll(urls: string[], inFlight: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const url = urls[next++] as string;
      await (await fetch(url)).arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}

/**
 * The probes of issue 21 against the default single instance (embedded PGlite), each next to its
 * baseline: memory over DISTINCT_URLS distinct catalogue URLs, the slowest search a client may ask,
 * health during a flood of deeply nested JSON, and under the mixed load with and without purchases.
 * The load runs in this process (floods and chat on worker threads), the server in its own.
 */
export async function benchHostile(serverEntry: string): Promise<HostileFigures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stagedoor-hostile-'));
  const secret = randomBytes(32).toString('base64url');
  const seeded = await seedHostile(dir, secret);
  const { creatorId } = seeded;
  const tokenOf = (id: number) =>
    signAccessToken(new TextEncoder().encode(secret), { id, role: 'user', tokenVersion: 0 });
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await startProcess(
    'Stagedoor',
    process.execPath,
    [serverEntry],
    {
      DATA_DIR: dir,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: base,
      JWT_SECRET: secret,
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
      // The fans' tickets are bought through the API at the start, a few hundred within seconds.
      ...CROWD_ENV,
    },
    /is running at/,
  );
  try {
    console.info('hostile: memory over distinct catalogue URLs');
    // Every kind of catalogue read once, so what the first answers cost is not counted as growth.
    const kinds = (n: number) => [
      `${base}/api/events/creator/${creatorId}?k=${n}&limit=100`,
      `${base}/api/events?offset=${n}&limit=100`,
      `${base}/api/events?q=show${n}`,
      `${base}/api/creators/many-events/events?limit=100&offset=${n % 400}`,
      `${base}/api/events/${(n % LONG_EVENTS) + 1}?k=${n}`,
    ];
    await getAll(kinds(0), 5);
    const beforeMB = server.rssBytes() / 2 ** 20;
    const urls = Array.from({ length: DISTINCT_URLS / 5 }, (_, n) => kinds(n + 1)).flat();
    await getAll(urls, 20);
    const afterMB = server.rssBytes() / 2 ** 20;

    console.info('hostile: searches');
    const costly = [
      'a b c d e f g z',
      'abcdefghijkl mnopqrstuvwx abcdefgh bcdefgha cdefghab defghabc efghabcd zzzzzzzz',
      'a'.repeat(100),
      '% _ \\ %% __ \\\\ %_ z',
      Array.from({ length: 50 }, (_, n) => String.fromCharCode(97 + (n % 26))).join(' '),
    ];
    const searches = [];
    for (const [n, query] of costly.entries()) {
      let slowest = { status: 0, ms: 0 };
      for (let attempt = 0; attempt < 3; attempt += 1) {
        // A distinct offset each time, so that no answer comes from the cache.
        const url = `${base}/api/events?q=${encodeURIComponent(query)}&offset=${10_000 + n * 10 + attempt}`;
        const startedAt = performance.now();
        const response = await fetch(url);
        await response.arrayBuffer();
        const ms = Math.round(performance.now() - startedAt);
        if (ms >= slowest.ms) slowest = { status: response.status, ms };
      }
      searches.push({ query: query.length > 40 ? `${query.slice(0, 37)}…` : query, ...slowest });
    }

    console.info('hostile: deep JSON flood');
    const durationMs = FLOOD_SECONDS * 1000;
    const deep = '['.repeat(500_000) + ']'.repeat(500_000);
    const request = {
      method: 'POST',
      path: '/api/auth/logout',
      headers: { 'content-type': 'application/json' },
      body: deep,
    };
    const baseline = await healthDuringFlood(base, request, { clients: 0, durationMs });
    const flood = await healthDuringFlood(base, request, { clients: FLOOD_CLIENTS, durationMs });
    const fanTokens = await Promise.all(seeded.fanIds.map(tokenOf));
    const buyerTokens = await Promise.all(seeded.buyerIds.map(tokenOf));
    for (const token of fanTokens) await buy(base, token, seeded.showId);

    console.info('hostile: socket flood');
    const flooder = startSocketFlood(base, fanTokens[0] as string, seeded.showId);
    const flooded = await healthDuringFlood(
      base,
      { method: 'GET', path: '/api/health' },
      { clients: 0, durationMs },
    );
    const socketFlood = { health: healthOf(flooded.healthMs), attack: await flooder.stop() };

    console.info('hostile: mixed load');
    const mixed = {
      withoutPurchases: await mixedLoad(base, fanTokens, seeded.showId, null),
      withPurchases: await mixedLoad(base, fanTokens, seeded.showId, buyerTokens),
    };
    return {
      socketFlood,
      mixed,
      rss: { beforeMB, afterMB },
      searches,
      deepJson: {
        baseline: healthOf(baseline.healthMs),
        flood: healthOf(flood.healthMs),
        statuses: flood.statuses,
      },
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
