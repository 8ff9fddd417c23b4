import { NICKNAME_HINT, type SessionUser } from '@stagedoor/shared/accounts';
import type { ErrorBody } from '@stagedoor/shared/errors';
import { afterAll, describe, expect, it } from 'vitest';
import { api, authHeader, createCreator, createUser, postForm } from '../../../test/factories';
import { createTestApp } from '../../../test/test-app';

const app = await createTestApp();
afterAll(() => app.close());

const patch = (url: string, token: string, payload: object) =>
  api(app, { method: 'PATCH', url, payload, headers: authHeader(token) });

describe('PATCH /api/auth/profile/{creator,user}', () => {
  it('updates the fields sent and answers {user}', async () => {
    const creator = await createCreator(app);
    const response = await patch('/api/auth/profile/creator', creator.token, {
      firstName: ' Ada ',
      lastName: 'Lovelace',
      nickname: 'Ada_Live-1815',
      biography: '  First programmer, now streaming.  ',
      timeZone: 'Europe/London',
    });
    expect(response.statusCode).toBe(200);
    const expected: SessionUser = {
      ...creator.user,
      firstName: 'Ada',
      lastName: 'Lovelace',
      nickname: 'Ada_Live-1815',
      biography: 'First programmer, now streaming.',
      timeZone: 'Europe/London',
    };
    expect(response.json()).toEqual({ user: expected });

    const profile = await api(app, {
      method: 'GET',
      url: '/api/auth/profile/creator',
      headers: authHeader(creator.token),
    });
    expect(profile.json<SessionUser>()).toEqual(expected);
  });

  it('refuses a time zone the runtime does not know', async () => {
    const fan = await createUser(app);
    const response = await patch('/api/auth/profile/user', fan.token, { timeZone: 'Mars/Olympus_Mons' });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({
      timeZone: 'Time zone must be an IANA time zone such as Europe/Lisbon',
    });
  });

  it('leaves out fields not sent, and clears a biography sent empty', async () => {
    const creator = await createCreator(app);
    await patch('/api/auth/profile/creator', creator.token, { biography: 'Something' });
    const response = await patch('/api/auth/profile/creator', creator.token, { biography: '' });
    expect(response.json<{ user: SessionUser }>().user).toEqual({ ...creator.user, biography: null });
    const unchanged = await patch('/api/auth/profile/creator', creator.token, {});
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json<{ user: SessionUser }>().user).toEqual({ ...creator.user, biography: null });
  });

  it('ignores a biography sent for a spectator', async () => {
    const spectator = await createUser(app);
    const response = await patch('/api/auth/profile/user', spectator.token, {
      firstName: 'Renamed',
      biography: 'Spectators have none',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ user: SessionUser }>().user).toEqual({
      ...spectator.user,
      firstName: 'Renamed',
      biography: null,
    });
  });

  it.each([
    ['bad chars', 'no spaces!', NICKNAME_HINT],
    ['over 32 characters', 'a'.repeat(33), NICKNAME_HINT],
    ['blank', '   ', 'Nickname is required'],
  ])('rejects a nickname with %s', async (_case, nickname, message) => {
    const spectator = await createUser(app);
    const response = await patch('/api/auth/profile/user', spectator.token, { nickname });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message,
      fields: { nickname: message },
    });
  });

  it('accepts a nickname of exactly 32 characters', async () => {
    const spectator = await createUser(app);
    const nickname = 'b'.repeat(31) + '_';
    const response = await patch('/api/auth/profile/user', spectator.token, { nickname });
    expect(response.statusCode).toBe(200);
    expect(response.json<{ user: SessionUser }>().user.nickname).toBe(nickname);
  });

  it('refuses a nickname taken by someone else in any case, not one own in another case', async () => {
    const owner = await createCreator(app);
    await patch('/api/auth/profile/creator', owner.token, { nickname: 'TheRealOne' });
    const other = await createUser(app);
    const taken = await patch('/api/auth/profile/user', other.token, { nickname: 'therealone' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json<ErrorBody>()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'This nickname is already taken',
      fields: { nickname: 'This nickname is already taken' },
    });
    const recased = await patch('/api/auth/profile/creator', owner.token, { nickname: 'THEREALONE' });
    expect(recased.statusCode).toBe(200);
  });

  it('lists every invalid field at once', async () => {
    const creator = await createCreator(app);
    const response = await patch('/api/auth/profile/creator', creator.token, {
      firstName: '',
      lastName: 'x'.repeat(101),
      nickname: 'bad nick',
      biography: 'y'.repeat(2001),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name must be at most 100 characters',
      nickname: NICKNAME_HINT,
      biography: 'Biography must be at most 2000 characters',
    });
  });

  it('is for the matching role and a signed-in account only', async () => {
    const spectator = await createUser(app);
    const creator = await createCreator(app);
    expect((await patch('/api/auth/profile/creator', spectator.token, { firstName: 'X' })).statusCode).toBe(
      403,
    );
    expect((await patch('/api/auth/profile/user', creator.token, { firstName: 'X' })).statusCode).toBe(403);
    const anonymous = await api(app, { method: 'PATCH', url: '/api/auth/profile/user', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('PUT /api/users/profile/info', () => {
  it.each(['creator', 'user'] as const)('updates a %s and answers the user object', async (role) => {
    const account = role === 'creator' ? await createCreator(app) : await createUser(app);
    const response = await api(app, {
      method: 'PUT',
      url: '/api/users/profile/info',
      headers: authHeader(account.token),
      payload: { firstName: 'Grace', lastName: 'Hopper', nickname: `grace-${account.user.id}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...account.user,
      firstName: 'Grace',
      lastName: 'Hopper',
      nickname: `grace-${account.user.id}`,
    });
  });

  it('needs a session', async () => {
    const response = await api(app, { method: 'PUT', url: '/api/users/profile/info', payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/auth/profile/creator (multipart)', () => {
  it('updates the text fields without an image and answers the user object', async () => {
    const creator = await createCreator(app);
    const response = await postForm(app, '/api/auth/profile/creator', creator.token, {
      firstName: 'Nina',
      lastName: 'Simone',
      nickname: `nina-${creator.user.id}`,
      biography: 'Jazz at midnight.',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ...creator.user,
      firstName: 'Nina',
      lastName: 'Simone',
      nickname: `nina-${creator.user.id}`,
      biography: 'Jazz at midnight.',
    });
  });

  it('lists every invalid text field at once', async () => {
    const creator = await createCreator(app);
    const response = await postForm(app, '/api/auth/profile/creator', creator.token, {
      firstName: '',
      lastName: 'Ok',
      nickname: 'not ok',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'First name is required',
      fields: { firstName: 'First name is required', nickname: NICKNAME_HINT },
    });
  });

  it('wants multipart, and a creator', async () => {
    const creator = await createCreator(app);
    const json = await api(app, {
      method: 'POST',
      url: '/api/auth/profile/creator',
      headers: authHeader(creator.token),
      payload: { firstName: 'Json' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json<ErrorBody>().message).toBe('Expected a multipart/form-data request');

    const spectator = await createUser(app);
    const forbidden = await postForm(app, '/api/auth/profile/creator', spectator.token, { firstName: 'Fan' });
    expect(forbidden.statusCode).toBe(403);
  });
});
