import type { AddressInfo } from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp, type App, type TestSeams } from '../src/app';
import { loadConfig } from '../src/config';

/**
 * A server built exactly like production, on a fresh database of the project's driver (an in-memory
 * PGlite, or a new database on the test PostgreSQL server) with its own data directory.
 * `env` overrides the environment, as an operator would; `seams` is only for the purchase race control.
 */
export async function createTestApp(env: Record<string, string> = {}, seams?: TestSeams): Promise<App> {
  const dataDir = await mkdtemp(path.join(inject('tempRoot'), 'data-'));
  return buildApp(
    loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: env.DATABASE_URL ?? (await freshDatabaseUrl()),
      JWT_SECRET: randomBytes(32).toString('base64url'),
      SEED_DEMO: '0',
      // Tests must not depend on whether apps/web happens to be built; the web app test makes its own.
      WEB_DIST_DIR: path.join(dataDir, 'no-web-build'),
      ...env,
    }),
    seams,
  );
}

/**
 * The environment of a second instance of `app`'s deployment: the same PostgreSQL database, the same
 * token secret and images in the database, as several instances behind a load balancer would run.
 */
export function sameDeploymentAs(app: App): Record<string, string> {
  const { database, jwtSecret } = app.deps.config;
  if (database.driver !== 'postgres') throw new Error('only PostgreSQL is shared between instances');
  return {
    DATABASE_URL: database.url,
    JWT_SECRET: new TextDecoder().decode(jwtSecret),
    IMAGE_STORAGE: 'database',
  };
}

/** A new, empty database: `memory://` on PGlite, a fresh database on the test PostgreSQL. */
export async function freshDatabaseUrl(): Promise<string> {
  if (inject('databaseDriver') === 'pglite') return 'memory://';
  const serverUrl = inject('postgresUrl');
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * One server on PGlite; on PostgreSQL two servers sharing the database, as two instances behind a load
 * balancer: what a race is run against. Each listens on a real socket; `origins` are their addresses.
 */
export async function startInstances(seams?: TestSeams): Promise<{ apps: App[]; origins: string[] }> {
  const first = await createTestApp({}, seams);
  const apps = [first];
  if (inject('databaseDriver') === 'postgres') apps.push(await createTestApp(sameDeploymentAs(first), seams));
  const origins: string[] = [];
  for (const app of apps) {
    await app.listen({ host: '127.0.0.1', port: 0 });
    origins.push(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`);
  }
  return { apps, origins };
}
