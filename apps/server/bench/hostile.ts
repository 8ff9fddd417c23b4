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
import { startChatters, type ChatFigures } from '../test/chatters';
import { startProcess } from './processes';
import { CROWD_ENV, giveSeededEventsTheirType } from './seed';

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
  recovery: RecoveryFigures;
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
    await giveSeededEventsTheirType(handle.db);
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

/** Seconds of purchases without pause before the kill: past EMBEDDED_CHECKPOINT_MS (30 s), one checkpoint in. */
export const KILL_AFTER_SECONDS = 40;
const KILL_BUYERS_IN_FLIGHT = 20;

export interface RecoveryFigures {
  /** From the start of the process to the first health answer, after a clean stop and after the kill. */
  afterStopMs: number;
  afterKillMs: number;
  /** Purchases answered 201 before the kill, and the show's tickets sold over the load once restarted. */
  answeredBeforeKill: number;
  soldAfterRestart: number;
}

/** The show's tickets sold, as its public page says. */
async function soldOf(base: string, eventId: number): Promise<number> {
  const event = (await (await fetch(`${base}/api/events/${eventId}`)).json()) as {
    maxTickets: number;
    ticketsLeft: number;
  };
  return event.maxTickets - event.ticketsLeft;
}

/** Buys one ticket at a time, `KILL_BUYERS_IN_FLIGHT` buyers at once, until `stopped()`; the 201s answered. */
async function buyWithoutPause(
  base: string,
  buyers: string[],
  eventId: number,
  stopped: () => boolean,
): Promise<number> {
  let sold = 0;
  const buyer = async (token: string) => {
    while (!stopped())
      await buy(base, token, eventId).then(
        () => (sold += 1),
        () => undefined,
      );
  };
  await Promise.all(buyers.slice(0, KILL_BUYERS_IN_FLIGHT).map(buyer));
  return sold;
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
  const startServer = () =>
    startProcess(
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
  /** Starts the server again on the same data, and times it from the start to its first health answer. */
  const restart = async () => {
    const startedAt = performance.now();
    server = await startServer();
    const health = await fetch(`${base}/api/health`);
    if (!health.ok) throw new Error(`health answered ${health.status} after a restart`);
    return Math.round(performance.now() - startedAt);
  };
  let server = await startServer();
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
    // A ticket holder of its own: its handshakes, refused for a minute after the flood, are not a fan's.
    const flooderToken = buyerTokens.at(-1) as string;
    await buy(base, flooderToken, seeded.showId);
    const flooder = startSocketFlood(base, flooderToken, seeded.showId);
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

    console.info('hostile: restart after a clean stop, and after a kill under load');
    await server.stop();
    const afterStopMs = await restart();
    const soldBefore = await soldOf(base, seeded.showId);
    let buying = true;
    const answered = buyWithoutPause(base, buyerTokens, seeded.showId, () => !buying);
    await new Promise((resolve) => setTimeout(resolve, KILL_AFTER_SECONDS * 1000));
    await server.kill();
    buying = false;
    const answeredBeforeKill = await answered;
    const afterKillMs = await restart();
    const recovery = {
      afterStopMs,
      afterKillMs,
      answeredBeforeKill,
      soldAfterRestart: (await soldOf(base, seeded.showId)) - soldBefore,
    };
    return {
      recovery,
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
