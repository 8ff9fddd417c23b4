// `npm run bench`: the storefront and the purchase path under load, each figure next to its ceiling
// measured in the same run on the same machine, written to BENCHMARKS.md. Figures, not pass/fail: the
// machines are shared and noisy. The load comes from this process; Stagedoor and the bare server each
// run in their own.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, sum } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig, type DatabaseConfig } from '../src/config';
import { createDatabase } from '../src/db/database';
import { events, orders } from '../src/db/schema';
import { signAccessToken } from '../src/modules/accounts/tokens';
import { freePort } from '../test/free-port';
import { startPostgresServer } from '../test/postgres-server';
import { measureFirstLoad } from '../../web/bench/first-load';
import { dropLoad, readLoad, type DropFigures, type ReadFigures } from './load';
import { startProcess } from './processes';
import { writeReport, type EngineFigures, type FirstLoadFigures } from './report';
import { CROWD_ENV, seed, STOCK, type Seeded } from './seed';

const serverRoot = fileURLToPath(new URL('..', import.meta.url));
const EXTRA_PURCHASES = 500;

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

/** What the drop left in the database: the tickets the event counts as sold, and those orders hold. */
async function soldAfterDrop(config: DatabaseConfig, eventId: number) {
  const handle = await createDatabase(config);
  try {
    const [event] = await handle.db.select({ sold: events.sold }).from(events).where(eq(events.id, eventId));
    const [held] = await handle.db
      .select({ tickets: sum(orders.quantity) })
      .from(orders)
      .where(eq(orders.eventId, eventId));
    return { sold: event?.sold ?? 0, inOrders: Number(held?.tickets ?? 0) };
  } finally {
    await handle.close();
  }
}

async function benchEngine(engine: 'PGlite' | 'PostgreSQL'): Promise<EngineFigures> {
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
    const server = await startProcess(
      'Stagedoor',
      process.execPath,
      [path.join(serverRoot, 'dist/server.js')],
      {
        ...databases.app.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(appPort),
        JWT_SECRET: secret,
        LOG_LEVEL: 'warn',
        SEED_DEMO: '0',
        ...CROWD_ENV,
      },
      /is running at/,
    );
    let bare: Awaited<ReturnType<typeof startProcess>> | undefined;
    try {
      const listUrl = `${app}/api/events`;
      const eventUrl = `${app}/api/events/${seeded.catalogueEventId}`;
      const bytes = {
        list: await (await fetch(listUrl)).text(),
        event: await (await fetch(eventUrl)).text(),
      };
      const bytesFile = path.join(tmpdir(), `stagedoor-bench-bytes-${appPort}.json`);
      await writeFile(bytesFile, JSON.stringify(bytes));
      const barePort = await freePort();
      const bareBase = `http://127.0.0.1:${barePort}`;
      bare = await startProcess(
        'bare server',
        process.execPath,
        ['--import', 'tsx', path.join(serverRoot, 'bench/bare.ts')],
        { ...databases.bare.env, PORT: String(barePort), BYTES_FILE: bytesFile },
        /ready/,
      );

      const reads: Record<'list' | 'event', { app: ReadFigures; bare: ReadFigures; bytes: number }> = {
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
      const requests = STOCK + EXTRA_PURCHASES;
      const purchase = { eventId: seeded.dropEventId, quantity: 1 };
      const buyerOf = (connection: number) => connection % seeded.buyerIds.length;
      const drop: { app: DropFigures; bare: DropFigures } = {
        bare: await dropLoad(
          bare,
          `${bareBase}/orders`,
          purchase,
          (connection) => ({ 'x-buyer': String(seeded.buyerIds[buyerOf(connection)]) }),
          requests,
        ),
        app: await dropLoad(
          server,
          `${app}/api/orders`,
          purchase,
          (connection) => ({ authorization: `Bearer ${tokens[buyerOf(connection)]}` }),
          requests,
        ),
      };
      await rm(bytesFile, { force: true });
      await Promise.all([server.stop(), bare.stop()]);
      return {
        engine,
        reads,
        drop,
        stock: STOCK,
        soldAfter: {
          app: await soldAfterDrop(databases.app.config, seeded.dropEventId),
          bare: await soldAfterDrop(databases.bare.config, seeded.dropEventId),
        },
      };
    } finally {
      await Promise.all([server.stop(), bare?.stop()]);
    }
  } finally {
    await databases.stop();
  }
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

const engines = process.argv.includes('--pglite-only')
  ? (['PGlite'] as const)
  : (['PGlite', 'PostgreSQL'] as const);
const figures: EngineFigures[] = [];
for (const engine of engines) figures.push(await benchEngine(engine));
await writeReport(figures, await benchFirstLoad());
