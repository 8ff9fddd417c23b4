import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config';
import { createDatabase } from '../src/db/database';
import { accounts, events } from '../src/db/schema';
import { hashPassword } from '../src/modules/accounts/passwords';
import { freePort } from '../test/free-port';
import { healthDuringFlood, percentile } from '../test/flood';
import { startProcess } from './processes';

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

/** One creator with LONG_EVENTS events of the longest descriptions, written before the server opens it. */
async function seedLongEvents(dataDir: string): Promise<number> {
  const { database } = loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) });
  const handle = await createDatabase(database);
  try {
    const [creator] = await handle.db
      .insert(accounts)
      .values({
        email: 'creator@hostile.test',
        passwordHash: await hashPassword('hostile-bench'),
        role: 'creator',
        firstName: 'Many',
        lastName: 'Events',
        nickname: 'many-events',
      })
      .returning({ id: accounts.id });
    if (!creator) throw new Error('no creator seeded');
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
    return creator.id;
  } finally {
    await handle.close();
  }
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
 * baseline: memory over DISTINCT_URLS distinct catalogue URLs, the slowest search a client may ask, and
 * health during a flood of deeply nested JSON. The attackers run in this process (a worker thread for
 * the flood), the server in its own.
 */
export async function benchHostile(serverEntry: string): Promise<HostileFigures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stagedoor-hostile-'));
  const creatorId = await seedLongEvents(dir);
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
      LOG_LEVEL: 'warn',
      SEED_DEMO: '0',
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
    return {
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
