import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { hashPassword } from '../src/modules/auth/passwords';

const DURATION_S = 5;
const CONNECTIONS = 20;

interface Row {
  name: string;
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
}

async function load(name: string, url: string, headers: Record<string, string> = {}): Promise<Row> {
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

/** HTTP throughput of the production server (PGlite, one process) on loopback. */
export async function benchHttp(): Promise<void> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stagedoor-bench-'));
  const app = await buildApp(
    loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      SEED_DEMO: '0',
    }),
  );
  try {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register/user',
      payload: {
        firstName: 'Bench',
        lastName: 'Mark',
        email: 'bench@example.test',
        password: 'bench-password',
      },
    });
    const { access_token: token } = registered.json<{ access_token: string }>();
    const auth = { authorization: `Bearer ${token}` };

    const health = await load('GET /api/health (select 1)', `${base}/api/health`);
    const rows = [
      health,
      await load('GET /api/auth/verify-token (JWT + account lookup)', `${base}/api/auth/verify-token`, auth),
      await load('GET /api/auth/profile/user (authenticated read)', `${base}/api/auth/profile/user`, auth),
      await load('GET / (SPA index.html)', `${base}/`, { accept: 'text/html' }),
    ];
    console.info(`\nHTTP on loopback: ${CONNECTIONS} connections, ${DURATION_S} s each, PGlite, one process`);
    // A table is the report; the bench prints nothing else of note.
    // eslint-disable-next-line no-console
    console.table(
      rows.map((row) => ({
        ...row,
        'vs health': `${(row.requestsPerSecond / health.requestsPerSecond).toFixed(2)}×`,
      })),
    );

    const hashes = 10;
    const started = performance.now();
    for (let i = 0; i < hashes; i += 1) await hashPassword(`password-${i}`);
    const perHash = (performance.now() - started) / hashes;
    console.info(
      `argon2id: ${perHash.toFixed(1)} ms per hash (${hashes} hashes): the floor of every login and registration`,
    );
  } finally {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}
