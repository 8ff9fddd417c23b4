import type { AuthResponse } from '@stagedoor/shared/accounts';
import type { PublicCreator } from '@stagedoor/shared/creators';
import type { CreatorStats, Event } from '@stagedoor/shared/events';
import type { Earnings, Payout } from '@stagedoor/shared/money';
import type { Order } from '@stagedoor/shared/orders';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { api, getOk } from '../../test/factories';
import { createTestApp } from '../../test/test-app';
import { DEMO_PASSWORD, formatDemoLogins, seedDemoData } from './seed';
import { queuedMailCount } from '../modules/mail/outbox';

const app = await createTestApp({ SEED_DEMO: '1' });
afterAll(() => app.close());

const get = <T>(url: string, token?: string) => getOk<T>(app, url, token);

const login = async (email: string, role: 'creator' | 'user') =>
  (
    await api(app, {
      method: 'POST',
      url: `/api/auth/login/${role}`,
      payload: { email, password: DEMO_PASSWORD },
    })
  ).json<AuthResponse>();

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
    // Registrations and sales queued welcomes and receipts on the way: the demo sends none of them.
    expect(await queuedMailCount(app.deps.db)).toBe(0);
  });

  it('shows a storefront: upcoming events with posters, sales, an inactive and a past event', async () => {
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

    const leo = await login('leo@demo.stagedoor.test', 'creator');
    const leoEvents = await get<Event[]>(`/api/events/creator/${leo.user.id}`, leo.access_token);
    const past = leoEvents.filter((event) => Date.parse(event.date) < Date.now());
    expect(past).toHaveLength(1);
    expect(past[0]?.ticketsLeft).toBeLessThan(past[0]?.maxTickets ?? 0);
    const maya = await login('maya@demo.stagedoor.test', 'creator');
    const mayaEvents = await get<Event[]>(`/api/events/creator/${maya.user.id}`, maya.access_token);
    expect(mayaEvents.filter((event) => !event.isActive)).toHaveLength(2);
    expect(mayaEvents.filter((event) => event.cancelledAt !== null)).toHaveLength(1);

    expect(await get<CreatorStats>('/api/events/creator/stats', maya.access_token)).toEqual({
      totalEvents: 6,
      totalTicketsSold: 10,
      totalRevenue: 97,
    });
    const sam = await login('sam@demo.stagedoor.test', 'user');
    expect((await get<Order[]>('/api/orders', sam.access_token)).length).toBeGreaterThan(2);
    const ana = await login('ana@demo.stagedoor.test', 'user');
    const anaOrders = await get<Order[]>('/api/orders', ana.access_token);
    expect(anaOrders.filter((order) => order.status === 'refunded')).toHaveLength(1);
  });

  it("shows a creator's earnings across past and upcoming events, a payout and a reserve", async () => {
    const { access_token } = await login('maya@demo.stagedoor.test', 'creator');
    const earnings = await get<Earnings>('/api/earnings', access_token);
    // The past show: 27.00 gross, 24.30 net, 2 % of it (0.49) reserved and the rest (23.81) due.
    expect(earnings.balance).toEqual({ pending: 63, available: 0, reserved: 0.49, due: 23.81, paidOut: 0 });
    expect(earnings.events.find((event) => event.cancelled)).toMatchObject({
      gross: 10,
      refunded: 10,
      net: 0,
    });
    expect(await get<Payout[]>('/api/payouts', access_token)).toEqual([
      expect.objectContaining({ amount: 23.81, status: 'due' }),
    ]);

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
