import type { AuthResponse } from '@stagedoor/shared/auth';
import type { PublicCreator } from '@stagedoor/shared/creators';
import type { CreatorStats, Event } from '@stagedoor/shared/events';
import type { Order } from '@stagedoor/shared/orders';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { api, authHeader } from '../../test/factories';
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

  it('shows a storefront: upcoming events with posters, sales, an inactive and a past event', async () => {
    const get = async <T>(url: string, token?: string) => {
      const response = await api(app, { method: 'GET', url, headers: token ? authHeader(token) : {} });
      expect(response.statusCode, url).toBe(200);
      return response.json<T>();
    };
    const listed = await get<Event[]>('/api/events');
    expect(listed).toHaveLength(6);
    expect(new Set(listed.map((event) => event.creator.nickname))).toEqual(
      new Set(['maya-rivers', 'leo-park']),
    );
    expect(listed.map((event) => event.date)).toEqual(listed.map((event) => event.date).sort());
    expect(new Set(listed.map((event) => event.price)).size).toBeGreaterThan(3);
    expect(listed.some((event) => event.ticketsLeft < event.maxTickets)).toBe(true);
    for (const event of listed) {
      const poster = await api(app, { method: 'GET', url: `/api/events/image/${event.image}` });
      expect(poster.statusCode).toBe(200);
      expect(await sharp(poster.rawPayload).metadata()).toMatchObject({ width: 1200, height: 675 });
    }

    const login = async (email: string, role: 'creator' | 'user') =>
      (
        await api(app, {
          method: 'POST',
          url: `/api/auth/login/${role}`,
          payload: { email, password: DEMO_PASSWORD },
        })
      ).json<AuthResponse>();
    const leo = await login('leo@demo.stagedoor.test', 'creator');
    const leoEvents = await get<Event[]>(`/api/events/creator/${leo.user.id}`, leo.access_token);
    const past = leoEvents.filter((event) => Date.parse(event.date) < Date.now());
    expect(past).toHaveLength(1);
    expect(past[0]?.ticketsLeft).toBeLessThan(past[0]?.maxTickets ?? 0);
    const maya = await login('maya@demo.stagedoor.test', 'creator');
    const mayaEvents = await get<Event[]>(`/api/events/creator/${maya.user.id}`, maya.access_token);
    expect(mayaEvents.filter((event) => !event.isActive)).toHaveLength(1);

    expect(await get<CreatorStats>('/api/events/creator/stats', maya.access_token)).toEqual({
      totalEvents: 4,
      totalTicketsSold: 7,
      totalRevenue: 70,
    });
    const sam = await login('sam@demo.stagedoor.test', 'user');
    expect((await get<Order[]>('/api/orders', sam.access_token)).length).toBeGreaterThan(2);

    const profile = await get<PublicCreator>('/api/creators/profile/maya-rivers');
    for (const [kind, file] of [
      ['header-image', profile.creatorInfo.headerImageUrl],
      ['profile-image', profile.creatorInfo.profileImageUrl],
    ]) {
      expect((await api(app, { method: 'GET', url: `/api/creators/${kind}/${file}` })).statusCode).toBe(200);
    }
  });

  it('changes nothing once there are accounts', async () => {
    expect(await seedDemoData(app.deps)).toBeNull();
  });
});
