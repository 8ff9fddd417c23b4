import type { AuthResponse } from '@stagedoor/shared/auth';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../../test/factories';
import { createTestApp } from '../../test/test-app';
import { DEMO_PASSWORD, formatDemoLogins, seedDemoData } from './seed';

const app = await createTestApp({ SEED_DEMO: '1' });
afterAll(() => app.close());

describe('seedDemoData', () => {
  it('fills an empty database with demo creators and spectators who can log in', async () => {
    const logins = await seedDemoData(app.deps);
    expect(logins?.map(({ role, email, nickname }) => ({ role, email, nickname }))).toEqual([
      { role: 'creator', email: 'maya@demo.stagedoor.test', nickname: 'maya-rivers' },
      { role: 'creator', email: 'leo@demo.stagedoor.test', nickname: 'leo-park' },
      { role: 'user', email: 'sam@demo.stagedoor.test', nickname: 'sam-taylor' },
      { role: 'user', email: 'ana@demo.stagedoor.test', nickname: 'ana-silva' },
    ]);

    for (const login of logins ?? []) {
      const response = await api(app, {
        method: 'POST',
        url: `/api/auth/login/${login.role}`,
        payload: { email: login.email, password: DEMO_PASSWORD },
      });
      expect(response.statusCode).toBe(200);
      const { user } = response.json<AuthResponse>();
      expect(user.biography === null).toBe(login.role === 'user');
    }
    expect(formatDemoLogins(logins ?? [])).toContain('maya@demo.stagedoor.test');
  });

  it('changes nothing once there are accounts', async () => {
    expect(await seedDemoData(app.deps)).toBeNull();
  });
});
