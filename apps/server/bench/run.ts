// `npm run bench`: the storefront and the purchase path under load, each figure next to its ceiling
// measured in the same run on the same machine, written to BENCHMARKS.md. Figures, not pass/fail: the
// machines are shared and noisy. The load comes from this process; Stagedoor and the bare server each
// run in their own.
//
// For a quicker look at one part (the report is then only printed, BENCHMARKS.md left as it is):
//   BENCH_ONLY=drop            only the parts named (comma-separated: reads, drop, first-load, hostile)
//   BENCH_ENGINES=PostgreSQL   only the engines named (comma-separated: PGlite, PostgreSQL)
//   BENCH_PROFILE=1            Stagedoor's process runs with --cpu-prof; where the .cpuprofile went is printed
// e.g. `BENCH_ONLY=drop BENCH_ENGINES=PGlite BENCH_PROFILE=1 npx tsx bench/run.ts` in apps/server, after
// `npm run build` (the bench runs the production bundle, dist/server.js).
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { count, eq, sum } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig, type DatabaseConfig } from '../src/config';
import { createDatabase } from '../src/db/database';
import { events, orders } from '../src/db/schema';
import { signAccessToken } from '../src/modules/accounts/tokens';
import { freePort } from '../test/free-port';
import { startPostgresServer } from '../test/postgres-server';
import { measureFirstLoad } from '../../web/bench/first-load';
import { benchHostile } from './hostile';
import { dropLoad, readLoad, type DropFigures } from './load';
import { startProcess, type Running } from './processes';
import { writeReport, type Engine, type EngineFigures, type FirstLoadFigures } from './report';
import { CROWD_ENV, DROP_ATTEMPTS, DROP_IN_FLIGHT, seed, TIERED_DROP, type Seeded } from './seed';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));

const PARTS = ['reads', 'drop', 'first-load', 'hostile'] as const;
type Part = (typeof PARTS)[number];
const ENGINES = ['PGlite', 'PostgreSQL'] as const;

/** The names a comma-separated variable lists, each one of `allowed` (case aside); all of them when unset. */
function listed<T extends string>(variable: string, allowed: readonly T[]): T[] {
  const value = process.env[variable]?.trim();
  if (!value) return [...allowed];
  return value.split(',').map((name) => {
    const known = allowed.find((candidate) => candidate.toLowerCase() === name.trim().toLowerCase());
    if (!known) throw new Error(`${variable}: ${name.trim()} is none of ${allowed.join(', ')}`);
    return known;
  });
}

/** A database as the server's environment names it, and as the server opens it. */
interface BenchDatabase {
  env: Record<string, string>;
  config: DatabaseConfig;
}

const databaseOf = (env: Record<string, string>): BenchDatabase => ({
  env,
  config: loadConfig({ ...env, JWT_SECRET: randomBytes(32).toString('base64url') }).database,
});

interface Databases {
  app: BenchDatabase;
  bare: BenchDatabase;
  stop(): Promise<void>;
}

async function pgliteDatabases(): Promise<Databases> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stagedoor-bench-'));
  return {
    app: databaseOf({ DATA_DIR: path.join(dir, 'app') }),
    bare: databaseOf({ DATA_DIR: path.join(dir, 'bare') }),
    stop: () => rm(dir, { recursive: true, force: true }),
  };
}

async function postgresDatabases(): Promise<Databases> {
  const server = await startPostgresServer();
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  await admin.query('create database app');
  await admin.query('create database bare');
  await admin.end();
  const urlOf = (name: string) => server.url.replace(/\/postgres$/, `/${name}`);
  return {
    app: databaseOf({ DATABASE_URL: urlOf('app') }),
    bare: databaseOf({ DATABASE_URL: urlOf('bare') }),
    stop: () => server.stop(),
  };
}

/**
 * What the drop left in the database: the tickets the event counts as sold, and those orders hold, and
 * the orders that used a code.
 */
async function soldAfterDrop(config: DatabaseConfig, eventId: number) {
  const handle = await createDatabase(config);
  try {
    const [event] = await handle.db.select({ sold: events.sold }).from(events).where(eq(events.id, eventId));
    const [held] = await handle.db
      .select({ tickets: sum(orders.quantity), coded: count(orders.promoCodeId) })
      .from(orders)
      .where(eq(orders.eventId, eventId));
    return { sold: event?.sold ?? 0, inOrders: Number(held?.tickets ?? 0), coded: held?.coded ?? 0 };
  } finally {
    await handle.close();
  }
}

interface EngineRun {
  parts: ReadonlySet<Part>;
  /** Set (BENCH_PROFILE): Stagedoor's process writes a CPU profile of its whole life in this directory. */
  profileDir: string | undefined;
}

async function benchEngine(engine: Engine, { parts, profileDir }: EngineRun): Promise<EngineFigures> {
  console.info(`\n${engine}: seeding`);
  const databases = engine === 'PGlite' ? await pgliteDatabases() : await postgresDatabases();
  try {
    const seeded: Seeded = await seed(databases.app.config);
    await seed(databases.bare.config);
    const secret = randomBytes(32).toString('base64url');
    const tokens = await Promise.all(
      seeded.buyerIds.map((id) =>
        signAccessToken(new TextEncoder().encode(secret), { id, role: 'user', tokenVersion: 0 }),
      ),
    );

    const appPort = await freePort();
    const app = `http://127.0.0.1:${appPort}`;
    if (profileDir) await mkdir(profileDir, { recursive: true });
    const server = await startProcess(
      'Stagedoor',
      process.execPath,
      [
        ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
        path.join(serverRoot, 'dist/server.js'),
      ],
      {
        ...databases.app.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(appPort),
        PUBLIC_URL: `http://127.0.0.1:${appPort}`,
        JWT_SECRET: secret,
        LOG_LEVEL: 'warn',
        SEED_DEMO: '0',
        ...CROWD_ENV,
      },
      /is running at/,
    );
    let bare: Running | undefined;
    const bytesFile = path.join(tmpdir(), `stagedoor-bench-bytes-${appPort}.json`);
    try {
      const listUrl = `${app}/api/events`;
      const eventUrl = `${app}/api/events/${seeded.catalogueEventId}`;
      const bytes = parts.has('reads')
        ? { list: await (await fetch(listUrl)).text(), event: await (await fetch(eventUrl)).text() }
        : undefined;
      if (bytes) await writeFile(bytesFile, JSON.stringify(bytes));
      const barePort = await freePort();
      const bareBase = `http://127.0.0.1:${barePort}`;
      bare = await startProcess(
        'bare server',
        process.execPath,
        ['--import', 'tsx', path.join(serverRoot, 'bench/bare.ts')],
        { ...databases.bare.env, PORT: String(barePort), ...(bytes ? { BYTES_FILE: bytesFile } : {}) },
        /ready/,
      );

      let reads: EngineFigures['reads'];
      if (bytes) {
        console.info(`${engine}: catalogue reads`);
        reads = {
          list: {
            bare: await readLoad(bare, `${bareBase}/bytes/list`),
            app: await readLoad(server, listUrl),
            bytes: Buffer.byteLength(bytes.list),
          },
          event: {
            bare: await readLoad(bare, `${bareBase}/bytes/event`),
            app: await readLoad(server, eventUrl),
            bytes: Buffer.byteLength(bytes.event),
          },
        };
      }
      let drop: { app: DropFigures; bare: DropFigures; tiered: DropFigures } | undefined;
      if (parts.has('drop')) {
        console.info(`${engine}: ticket drop`);
        const purchase = { eventId: seeded.dropEventId, quantity: 1 };
        // One buyer per connection: no buyer has two purchases in flight, nor reaches a per-buyer limit.
        const buyerOf = (connection: number) => connection % seeded.buyerIds.length;
        const shape = { requests: DROP_ATTEMPTS, connections: DROP_IN_FLIGHT };
        drop = {
          bare: await dropLoad(
            bare,
            `${bareBase}/orders`,
            () => purchase,
            (connection) => ({ 'x-buyer': String(seeded.buyerIds[buyerOf(connection)]) }),
            shape,
          ),
          app: await dropLoad(
            server,
            `${app}/api/orders`,
            () => purchase,
            (connection) => ({ authorization: `Bearer ${tokens[buyerOf(connection)]}` }),
            shape,
          ),
          // The same crowd over two types, every other connection bringing the code.
          tiered: await dropLoad(
            server,
            `${app}/api/orders`,
            (connection) => ({
              eventId: seeded.tieredDrop.eventId,
              quantity: 1,
              ticketTypeId: seeded.tieredDrop.typeIds[connection % 2],
              ...(connection % 4 < 2 ? { promoCode: TIERED_DROP.code } : {}),
            }),
            (connection) => ({ authorization: `Bearer ${tokens[buyerOf(connection)]}` }),
            shape,
          ),
        };
      }
      await Promise.all([server.stop(), bare.stop()]);
      if (profileDir) await printProfiles(engine, profileDir);
      return {
        engine,
        reads,
        drop: drop && {
          ...drop,
          soldAfter: {
            app: await soldAfterDrop(databases.app.config, seeded.dropEventId),
            bare: await soldAfterDrop(databases.bare.config, seeded.dropEventId),
            tiered: await soldAfterDrop(databases.app.config, seeded.tieredDrop.eventId),
          },
        },
      };
    } finally {
      await Promise.all([server.stop(), bare?.stop(), rm(bytesFile, { force: true })]);
    }
  } finally {
    await databases.stop();
  }
}

async function printProfiles(engine: Engine, dir: string): Promise<void> {
  const profiles = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile'));
  console.info(
    profiles.length
      ? `${engine}: Stagedoor's CPU profile (open in Chrome DevTools, Performance, or speedscope): ` +
          profiles.map((name) => path.join(dir, name)).join(', ')
      : `${engine}: no CPU profile was written in ${dir} (did the server exit cleanly?)`,
  );
}

/** What a first visit to / and /events costs in JavaScript, with brotli (Chromium) and with gzip only. */
async function benchFirstLoad(): Promise<FirstLoadFigures> {
  const dir = await mkdtemp(path.join(tmpdir(), 'stagedoor-bench-'));
  const port = await freePort();
  const server = await startProcess(
    'Stagedoor',
    process.execPath,
    [path.join(serverRoot, 'dist/server.js')],
    {
      DATA_DIR: dir,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      SEED_DEMO: '1',
    },
    /is running at/,
  );
  try {
    const base = `http://127.0.0.1:${port}`;
    return {
      brotli: await measureFirstLoad(base),
      gzip: await measureFirstLoad(base, { acceptEncoding: 'gzip' }),
    };
  } finally {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const parts = new Set(listed('BENCH_ONLY', PARTS));
const engines = listed('BENCH_ENGINES', ENGINES);
const profileRoot =
  process.env.BENCH_PROFILE && process.env.BENCH_PROFILE !== '0'
    ? await mkdtemp(path.join(tmpdir(), 'stagedoor-bench-profile-'))
    : undefined;
const figures: EngineFigures[] = [];
if (parts.has('reads') || parts.has('drop')) {
  for (const engine of new Set(engines)) {
    const profileDir = profileRoot && path.join(profileRoot, engine);
    figures.push(await benchEngine(engine, { parts, profileDir }));
  }
}
const firstLoad = parts.has('first-load') ? await benchFirstLoad() : undefined;
const hostile = parts.has('hostile')
  ? await benchHostile(path.join(serverRoot, 'dist/server.js'))
  : undefined;
// BENCHMARKS.md holds whole runs only, and none with a profiler slowing Stagedoor down.
const whole = parts.size === PARTS.length && new Set(engines).size === ENGINES.length && !profileRoot;
await writeReport(figures, firstLoad, hostile, { toFile: whole });
