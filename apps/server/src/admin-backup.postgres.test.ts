import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectSale, newDir, sold } from '../test/backups';
import { createTestApp } from '../test/test-app';
import { runDatabaseCommand } from './admin-backup';
import { loadConfig } from './config';

const run = promisify(execFile);
const POSTGRES_BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin';

describe('backing up PostgreSQL (docs/deploy.md)', () => {
  it('points the backup command to pg_dump', async () => {
    const app = await createTestApp();
    const { database } = app.deps.config;
    await app.close();
    if (database.driver !== 'postgres') throw new Error('expected PostgreSQL');
    const config = loadConfig({
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(32).toString('base64url'),
    });
    await expect(runDatabaseCommand(config, ['backup', 'x.dump'])).rejects.toThrow(
      'DATABASE_URL names a PostgreSQL server: use pg_dump (docs/deploy.md).',
    );
  });

  it(
    "restores the guide's pg_dump into a new database that a server starts from",
    { timeout: 60_000 },
    async () => {
      const app = await createTestApp();
      const sale = await sold(app);
      const { database, jwtSecret } = app.deps.config;
      if (database.driver !== 'postgres') throw new Error('expected PostgreSQL');
      const file = path.join(await newDir('pg-backup'), 'stagedoor.dump');
      // docs/deploy.md's commands, with the server running: pg_dump reads one consistent snapshot.
      await run(path.join(POSTGRES_BIN, 'pg_dump'), ['--format=custom', `--file=${file}`, database.url]);
      await app.close();

      const target = new URL(database.url);
      target.pathname = `/restored_${randomUUID().replaceAll('-', '')}`;
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(`create database ${target.pathname.slice(1)}`);
      await admin.end();
      await run(path.join(POSTGRES_BIN, 'pg_restore'), ['--no-owner', `--dbname=${target}`, file]);

      const again = await createTestApp({
        DATABASE_URL: target.toString(),
        JWT_SECRET: new TextDecoder().decode(jwtSecret),
      });
      onTestFinished(() => again.close());
      await expectSale(again, sale);
    },
  );
});
