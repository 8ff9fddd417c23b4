import type { SessionUser } from '@stagedoor/shared/accounts';
import type { PublicCreator, PublicUser } from '@stagedoor/shared/creators';
import type { ErrorBody } from '@stagedoor/shared/errors';
import type { Event } from '@stagedoor/shared/events';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  daysFromNow,
  eventFormFields,
  moveEventDate,
  postForm,
  type TestAccount,
} from '../../../test/factories';
import { pngWithMetadata } from '../../../test/images';
import { createTestApp } from '../../../test/test-app';
import { accounts } from '../../db/schema';

const app = await createTestApp();
afterAll(() => app.close());

const get = (url: string, token?: string) =>
  api(app, { method: 'GET', url, headers: token ? authHeader(token) : {} });

const NOT_FOUND: ErrorBody = { statusCode: 404, code: 'NOT_FOUND', message: 'Creator not found' };

async function creatorWithProfile() {
  const creator = await createCreator(app, { firstName: 'Nina', lastName: 'Moreau' });
  const response = await postForm(
    app,
    '/api/auth/profile/creator',
    creator.token,
    { biography: 'Cellist. Late-night sessions.' },
    { headerImageUrl: { data: await pngWithMetadata(), filename: 'header.png', type: 'image/png' } },
  );
  expect(response.statusCode).toBe(200);
  return { ...creator, user: response.json<SessionUser>() };
}

describe('GET /api/creators/:creatorId and /api/creators/profile/:nickname', () => {
  it('answer the public profile, without the email', async () => {
    const creator = await creatorWithProfile();
    const expected: PublicCreator = {
      id: creator.user.id,
      nickname: creator.user.nickname,
      firstName: 'Nina',
      lastName: 'Moreau',
      creatorInfo: {
        headerImageUrl: creator.user.headerImageUrl,
        profileImageUrl: null,
        biography: 'Cellist. Late-night sessions.',
      },
    };
    expect(creator.user.headerImageUrl).toMatch(/\.png$/);
    const byId = await get(`/api/creators/${creator.user.id}`);
    expect(byId.statusCode).toBe(200);
    expect(byId.json()).toEqual(expected);
    const byNickname = await get(`/api/creators/profile/${creator.user.nickname.toUpperCase()}`);
    expect(byNickname.statusCode).toBe(200);
    expect(byNickname.json()).toEqual(expected);
  });

  it('answer 404 for spectators and unknown creators', async () => {
    const spectator = await createUser(app);
    for (const url of [
      `/api/creators/${spectator.user.id}`,
      `/api/creators/profile/${spectator.user.nickname}`,
      '/api/creators/2147483647',
      '/api/creators/profile/nobody-by-that-name',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.json(), url).toEqual(NOT_FOUND);
    }
    expect((await get('/api/creators/not-a-number')).json<ErrorBody>().fields).toEqual({
      creatorId: 'Creator id must be a number',
    });
  });
});

describe('GET /api/creators/:nickname/events', () => {
  it("answers the creator's active events still to come, soonest first", async () => {
    const creator = await createCreator(app);
    await createEvent(app, creator, { name: 'Later', date: daysFromNow(9) });
    await createEvent(app, creator, { name: 'Soon', date: daysFromNow(1) });
    await createEvent(app, creator, { name: 'Hidden', isActive: false });
    const past = await createEvent(app, creator, { name: 'Past' });
    await moveEventDate(app, past.id, daysFromNow(-2));
    await createEvent(app, await createCreator(app), { name: 'Someone else' });

    const response = await get(`/api/creators/${creator.user.nickname}/events`);
    expect(response.statusCode).toBe(200);
    const events = response.json<Event[]>();
    expect(events.map((event) => event.name)).toEqual(['Soon', 'Later']);
    expect(events[0]?.creator).toEqual({
      nickname: creator.user.nickname,
      firstName: creator.user.firstName,
      lastName: creator.user.lastName,
      timeZone: 'UTC',
    });
  });

  it('answers 404 for an unknown nickname or a spectator', async () => {
    const spectator = await createUser(app);
    for (const nickname of ['nobody-by-that-name', spectator.user.nickname]) {
      const response = await get(`/api/creators/${nickname}/events`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    }
  });

  it('keeps the router words out of nicknames, so every creator reaches their events', async () => {
    const header = await createCreator(app, { firstName: 'Header', lastName: 'Image' });
    expect(header.user.nickname).toBe('header-image-2');
    await createEvent(app, header, { name: 'Reachable' });
    const events = await get(`/api/creators/${header.user.nickname}/events`);
    expect(events.json<Event[]>().map((event) => event.name)).toEqual(['Reachable']);

    for (const nickname of ['profile', 'Header-Image', 'profile-image']) {
      const response = await api(app, {
        method: 'PATCH',
        url: '/api/auth/profile/creator',
        headers: authHeader(header.token),
        payload: { nickname },
      });
      expect(response.statusCode, nickname).toBe(409);
      expect(response.json<ErrorBody>().fields).toEqual({ nickname: 'This nickname is already taken' });
    }
  });
});

describe('GET /api/users/:id', () => {
  it('shows a creator to others with the full name in place of the email', async () => {
    const creator = await createCreator(app, { firstName: 'Leo', lastName: 'Park' });
    const expected: PublicUser = { ...creator.user, email: 'Leo Park' };
    expect((await get(`/api/users/${creator.user.id}`)).json()).toEqual(expected);
    const seenByFan = await get(`/api/users/${creator.user.id}`, (await createUser(app)).token);
    expect(seenByFan.json()).toEqual(expected);
  });

  it('shows an account to itself as its session does', async () => {
    const creator = await createCreator(app);
    expect((await get(`/api/users/${creator.user.id}`, creator.token)).json()).toEqual(creator.user);
    const spectator = await createUser(app);
    expect((await get(`/api/users/${spectator.user.id}`, spectator.token)).json()).toEqual(spectator.user);
  });

  it('answers 404 for a spectator to anyone but that spectator, and for unknown ids', async () => {
    const spectator = await createUser(app);
    const other = await createCreator(app);
    for (const token of [undefined, other.token]) {
      const response = await get(`/api/users/${spectator.user.id}`, token);
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorBody>().message).toBe('User not found');
    }
    expect((await get('/api/users/2147483647')).statusCode).toBe(404);
    expect((await get('/api/users/me')).statusCode).toBe(400);
  });
});

const FORBIDDEN = ['password', 'passwordhash', 'password_hash', '$argon2', 'tokenversion', 'token_version'];

async function withImages(creator: TestAccount): Promise<SessionUser> {
  const image = async () => ({ data: await pngWithMetadata(), filename: 'me.png', type: 'image/png' });
  await postForm(
    app,
    '/api/auth/profile/creator',
    creator.token,
    { biography: 'Hi' },
    { headerImageUrl: await image() },
  );
  const response = await postForm(
    app,
    '/api/auth/profile/creator/profile-image',
    creator.token,
    {},
    {
      profileImageUrl: await image(),
    },
  );
  expect(response.statusCode).toBe(200);
  return response.json<SessionUser>();
}

describe('every public endpoint', () => {
  it('never answer an email, a password hash or a token version, to visitors or other accounts', async () => {
    const creators = [await createCreator(app), await createCreator(app)];
    const profiles = await Promise.all(creators.map(withImages));
    const spectator = await createUser(app);
    const outsider = await createUser(app);
    const events: Event[] = [];
    for (const creator of creators) {
      const created = await postForm(app, '/api/events', creator.token, eventFormFields(), {
        image: { data: await pngWithMetadata(), filename: 'poster.png', type: 'image/png' },
      });
      events.push(created.json<Event>());
      events.push(await createEvent(app, creator, { isActive: false }));
    }
    for (const event of events.filter((event) => event.isActive)) {
      await buyTicketsOk(app, spectator, event.id, 1);
    }
    const viewed = [...creators, spectator, outsider];
    // Every account of this server, those of the other tests of this file included.
    const emails = (await app.deps.db.select({ email: accounts.email }).from(accounts)).map(({ email }) =>
      email.toLowerCase(),
    );
    expect(emails.length).toBeGreaterThan(viewed.length);

    // Every public GET of the API, each with the status it must answer: spectators have no public page.
    const publicUrls: [url: string, status: number][] = [
      ['/api/health', 200],
      ['/api/events', 200],
      ['/api/events?limit=100', 200],
      ...events.map((event): [string, number] => [`/api/events/${event.id}`, 200]),
      ...events.flatMap((event): [string, number][] =>
        event.image ? [[`/api/events/image/${event.image}`, 200]] : [],
      ),
      ...viewed.flatMap(({ user }): [string, number][] => {
        const status = user.role === 'creator' ? 200 : 404;
        return [
          [`/api/events/creator/${user.id}`, status],
          [`/api/creators/${user.id}`, status],
          [`/api/creators/profile/${user.nickname}`, status],
          [`/api/creators/${user.nickname}/events`, status],
          [`/api/users/${user.id}`, status],
        ];
      }),
      ...profiles.flatMap((profile): [string, number][] => [
        [`/api/creators/header-image/${profile.headerImageUrl}`, 200],
        [`/api/creators/profile-image/${profile.profileImageUrl}`, 200],
        [`/api/users/profile-image/${profile.profileImageUrl}`, 200],
      ]),
    ];
    const viewers = [
      { name: 'a visitor', headers: {}, urls: [...publicUrls, ['/api/auth/verify-token', 200] as const] },
      {
        name: 'another account',
        headers: authHeader(outsider.token),
        // Its own account is its own business.
        urls: publicUrls.filter(([url]) => url !== `/api/users/${outsider.user.id}`),
      },
    ];

    for (const viewer of viewers) {
      for (const [url, status] of viewer.urls) {
        const response = await api(app, { method: 'GET', url, headers: viewer.headers });
        // The check is only worth something if the page was really there (or really not).
        expect(response.statusCode, `${viewer.name}: GET ${url}`).toBe(status);
        const body = response.rawPayload.toString('latin1').toLowerCase();
        for (const secret of [...emails, ...FORBIDDEN]) {
          expect(body.includes(secret), `${viewer.name}: GET ${url} shows ${secret}`).toBe(false);
        }
      }
    }
  });
});
