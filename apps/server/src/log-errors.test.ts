import type { AuthResponse } from '@stagedoor/shared/accounts';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { api, authHeader, uniqueEmail } from '../test/factories';
import { createTestApp } from '../test/test-app';

const lines: string[] = [];
const app = await createTestApp({ LOG_LEVEL: 'trace' }, { logStream: { write: (line) => lines.push(line) } });
afterAll(() => app.close());

describe('the log', () => {
  it('never holds a password, a hash, an email of a failed query, or a token, even at trace level', async () => {
    // A database that refuses this one name: the failed insert's error carries every value it held.
    await app.deps.db.execute(
      sql`alter table accounts add constraint refuses_boom check (first_name <> 'Boom')`,
    );
    const refused = { firstName: 'Boom', lastName: 'Fan', email: uniqueEmail(), password: 'secret-boom-123' };
    const failed = await api(app, { method: 'POST', url: '/api/auth/register/user', payload: refused });
    expect(failed.statusCode).toBe(500);

    const account = { firstName: 'Ada', lastName: 'Fan', email: uniqueEmail(), password: 'secret-ada-123' };
    const registered = await api(app, { method: 'POST', url: '/api/auth/register/user', payload: account });
    const { access_token: token } = registered.json<AuthResponse>();
    await api(app, { method: 'GET', url: '/api/auth/profile/user', headers: authHeader(token) });
    await api(app, {
      method: 'POST',
      url: '/api/auth/login/user',
      payload: { ...account, password: 'wrong-1' },
    });
    await api(app, {
      method: 'POST',
      url: '/api/auth/change-password',
      headers: authHeader(token),
      payload: { currentPassword: account.password, newPassword: 'secret-ada-456' },
    });

    const log = lines.join('');
    // What the failure must still tell the operator: which query failed, and why.
    expect(log).toContain('request failed');
    expect(log).toContain('Failed query: insert into');
    expect(log).toContain('refuses_boom');
    for (const secret of [
      refused.email,
      refused.password,
      account.password,
      'secret-ada-456',
      'wrong-1',
      '$argon2',
      token,
    ]) {
      expect(log).not.toContain(secret);
    }
  });
});
