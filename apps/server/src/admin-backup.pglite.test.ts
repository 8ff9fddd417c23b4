import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { expectSale, newDir, sold } from '../test/backups';
import { createTestApp } from '../test/test-app';
import { runDatabaseCommand } from './admin-backup';
import { loadConfig } from './config';

const run = promisify(execFile);
const SERVER_ROOT = new URL('..', import.meta.url).pathname;

/** `npm run admin -- <args>` as an operator runs it, with the deployment's environment. */
function admin(env: Record<string, string>, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'src/admin.ts', ...args], {
    cwd: SERVER_ROOT,
    env: { ...process.env, NODE_ENV: 'test', ...env },
  });
}

describe('npm run admin -- backup / restore (PGlite)', () => {
  it(
    'writes a backup of a stopped server that a new DATA_DIR restores and a server starts from',
    { timeout: 120_000 },
    async () => {
      const jwtSecret = randomBytes(32).toString('base64url');
      const deployment = { DATA_DIR: await newDir('live'), DATABASE_URL: '', JWT_SECRET: jwtSecret };
      const app = await createTestApp(deployment);
      const sale = await sold(app);
      await app.close();

      const file = path.join(await newDir('backups'), 'stagedoor.tar.gz');
      const backedUp = await admin(deployment, 'backup', file);
      expect(backedUp.stdout).toMatch(/^Backed up .* to .*stagedoor\.tar\.gz \(\d+\.\d MB\)\./);
      expect(existsSync(file)).toBe(true);
      expect(existsSync(`${file}.partial`)).toBe(false);

      const restoredEnv = { DATA_DIR: await newDir('restored'), DATABASE_URL: '', JWT_SECRET: jwtSecret };
      // The command line's other half (admin.ts hands both to runDatabaseCommand).
      expect(await runDatabaseCommand(loadConfig(restoredEnv), ['restore', file])).toContain('Restored');

      const again = await createTestApp(restoredEnv);
      onTestFinished(() => again.close());
      await expectSale(again, sale);
    },
  );

  it('refuses to restore over a database, and to back up none', async () => {
    const config = (dataDir: string) =>
      loadConfig({ DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString('base64url') });
    const empty = await newDir('empty');
    await expect(runDatabaseCommand(config(empty), ['backup', path.join(empty, 'x.tar.gz')])).rejects.toThrow(
      `There is no database in ${path.join(empty, 'db')}.`,
    );

    const app = await createTestApp({ DATA_DIR: await newDir('holding'), DATABASE_URL: '' });
    const { dataDir } = app.deps.config;
    await app.close();
    await expect(
      runDatabaseCommand(config(dataDir), ['restore', path.join(empty, 'x.tar.gz')]),
    ).rejects.toThrow('already holds a database: move it away first');
    await expect(runDatabaseCommand(config(dataDir), ['backup'])).rejects.toThrow(
      'Usage: npm run admin -- backup <file>',
    );
  });
});
