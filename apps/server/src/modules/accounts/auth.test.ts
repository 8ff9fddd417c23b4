import type { AuthResponse, SessionUser, VerifyTokenResponse } from '@stagedoor/shared/accounts';
import type { ErrorBody } from '@stagedoor/shared/errors';
import { SignJWT } from 'jose';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  api,
  authHeader,
  createCreator,
  createUser,
  nextRemoteAddress,
  uniqueEmail,
  type TestAccount,
} from '../../../test/factories';
import type { App } from '../../app';
import { listen, LiveClients } from '../../../test/live-clients';
import { createTestApp } from '../../../test/test-app';
import { CONFLICTS_PER_EMAIL } from './auth.routes';
import { FAILURES_PER_EMAIL_AND_ADDRESS, FREE_FAILURES_PER_EMAIL } from './login-guard';
import { verifiedTokensKept, verifyAccessToken } from './tokens';

const app = await createTestApp();
afterAll(() => app.close());

const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  api(app, { method: 'POST', url, payload, headers });
const get = (url: string, headers: Record<string, string> = {}) => api(app, { method: 'GET', url, headers });

function expectSessionUser(user: SessionUser, expected: Partial<SessionUser>) {
  expect(Object.keys(user).sort()).toEqual(
    [
      'biography',
      'email',
      'firstName',
      'headerImageUrl',
      'id',
      'lastName',
      'nickname',
      'profileImageUrl',
      'role',
      'timeZone',
    ].sort(),
  );
  expect(user).toMatchObject(expected);
}

describe('POST /api/auth/register/{creator,user}', () => {
  it.each(['creator', 'user'] as const)('creates a %s, signs it in and gives it a nickname', async (role) => {
    const email = uniqueEmail('Register');
    const response = await post(`/api/auth/register/${role}`, {
      firstName: '  Zoë ',
      lastName: "O'Brien-Núñez",
      email: `  ${email.toUpperCase()} `,
      password: 'a-long-password',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json<AuthResponse>();
    expect(body.access_token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expectSessionUser(body.user, {
      email: email.toLowerCase(),
      role,
      firstName: 'Zoë',
      lastName: "O'Brien-Núñez",
      biography: null,
      headerImageUrl: null,
      profileImageUrl: null,
      timeZone: 'UTC',
    });
    expect(body.user.nickname).toMatch(/^zoe-o-brien-nunez(-\d+)?$/);

    const profile = await get(`/api/auth/profile/${role}`, authHeader(body.access_token));
    expect(profile.statusCode).toBe(200);
    expect(profile.json<SessionUser>()).toEqual(body.user);
  });

  it('de-duplicates nicknames made from the same name', async () => {
    const name = { firstName: 'Dana', lastName: 'Scully' };
    const first = await createCreator(app, name);
    const second = await createUser(app, name);
    const third = await createCreator(app, name);
    expect([first.user.nickname, second.user.nickname, third.user.nickname]).toEqual([
      'dana-scully',
      'dana-scully-2',
      'dana-scully-3',
    ]);
  });

  it('gives every one of many simultaneous registrations with one name its own nickname', async () => {
    const name = { firstName: 'Fox', lastName: 'Mulder' };
    const accounts = await Promise.all(Array.from({ length: 30 }, () => createUser(app, name)));
    const nicknames = accounts.map((account) => account.user.nickname);
    expect(new Set(nicknames).size).toBe(30);
    for (const nickname of nicknames) expect(nickname).toMatch(/^fox-mulder(-[a-z0-9]+)?$/);
  });

  it('keeps derived nicknames within 32 characters, suffix included', async () => {
    const name = { firstName: 'Maximiliana Alexandrina', lastName: 'Wolfeschlegelsteinhausen' };
    const first = await createUser(app, name);
    const second = await createUser(app, name);
    expect(first.user.nickname).toBe('maximiliana-alexandrina-wolfesch');
    expect(second.user.nickname).toBe('maximiliana-alexandrina-wolfes-2');
  });

  it('gives a name without Latin letters a fallback nickname', async () => {
    const { user } = await createCreator(app, { firstName: '李', lastName: '雷' });
    expect(user.nickname).toMatch(/^creator(-\d+)?$/);
  });

  it('answers every missing field at once', async () => {
    const response = await api(app, { method: 'POST', url: '/api/auth/register/creator' });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'First name is required',
      fields: {
        firstName: 'First name is required',
        lastName: 'Last name is required',
        email: 'Email is required',
        password: 'Password is required',
      },
    });
  });

  it('rejects a bad email, a short password and blank names', async () => {
    const response = await post('/api/auth/register/user', {
      firstName: '   ',
      lastName: 'Fan',
      email: 'not-an-email',
      password: 'short',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({
      firstName: 'First name is required',
      email: 'Email must be a valid email address',
      password: 'Password must be at least 8 characters',
    });
  });

  it('refuses an email already used, whatever its case and role', async () => {
    const existing = await createUser(app);
    const response = await post('/api/auth/register/creator', {
      firstName: 'Other',
      lastName: 'Person',
      email: existing.email.toUpperCase(),
      password: 'another-password',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'An account with this email already exists',
      fields: { email: 'An account with this email already exists' },
    });
  });
});

describe('POST /api/auth/login/{creator,user}', () => {
  it.each(['creator', 'user'] as const)('signs a %s in on its own login, email in any case', async (role) => {
    const account = role === 'creator' ? await createCreator(app) : await createUser(app);
    const response = await post(`/api/auth/login/${role}`, {
      email: account.email.toUpperCase(),
      password: account.password,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<AuthResponse>();
    expect(body.user).toEqual(account.user);
    const profile = await get(`/api/auth/profile/${role}`, authHeader(body.access_token));
    expect(profile.json<SessionUser>().id).toBe(account.user.id);
  });

  it('refuses a wrong password and an unknown email alike', async () => {
    const account = await createUser(app);
    const wrongPassword = await post('/api/auth/login/user', {
      email: account.email,
      password: 'wrong-password',
    });
    const unknownEmail = await post('/api/auth/login/user', {
      email: uniqueEmail(),
      password: account.password,
    });
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.statusCode).toBe(401);
      expect(response.json<ErrorBody>()).toEqual({
        statusCode: 401,
        code: 'UNAUTHORIZED',
        message: 'Invalid email or password',
      });
    }
  });

  it('sends a spectator on the creator login to /user/login', async () => {
    const spectator = await createUser(app);
    const response = await post('/api/auth/login/creator', {
      email: spectator.email,
      password: spectator.password,
    });
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      message: 'This is a spectator account. Please log in at /user/login.',
    });
  });

  it('sends a creator on the spectator login to /login', async () => {
    const creator = await createCreator(app);
    const response = await post('/api/auth/login/user', { email: creator.email, password: creator.password });
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorBody>().message).toBe('This is a creator account. Please log in at /login.');
  });

  it('reveals the role only to someone who knows the password', async () => {
    const creator = await createCreator(app);
    const response = await post('/api/auth/login/user', { email: creator.email, password: 'wrong-password' });
    expect(response.statusCode).toBe(401);
  });

  it('lists missing fields', async () => {
    const response = await post('/api/auth/login/creator', { email: 'x@' });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({
      email: 'Email must be a valid email address',
      password: 'Password is required',
    });
  });
});

describe('tokens', () => {
  let account: TestAccount;
  const protectedUrl = '/api/auth/profile/user';

  async function expectRefused(token: string, message: string) {
    const response = await get(protectedUrl, authHeader(token));
    expect(response.statusCode).toBe(401);
    expect(response.json<ErrorBody>()).toEqual({ statusCode: 401, code: 'UNAUTHORIZED', message });
    const verified = await get('/api/auth/verify-token', authHeader(token));
    expect(verified.statusCode).toBe(200);
    expect(verified.json<VerifyTokenResponse>()).toEqual({ valid: false, user: null });
  }

  function signed(secret: Uint8Array, claims: { sub: string; ver: number; exp: number }) {
    return new SignJWT({ role: 'user', ver: claims.ver })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub)
      .setJti(`test-${claims.sub}-${claims.exp}`)
      .setIssuedAt(claims.exp - 3600)
      .setExpirationTime(claims.exp)
      .sign(secret);
  }

  it('verify-token answers valid with the user for a good token', async () => {
    account = await createUser(app);
    const response = await get('/api/auth/verify-token', authHeader(account.token));
    expect(response.statusCode).toBe(200);
    expect(response.json<VerifyTokenResponse>()).toEqual({ valid: true, user: account.user });
  });

  it('verify-token answers valid:false, not 401, without a token', async () => {
    const response = await get('/api/auth/verify-token');
    expect(response.statusCode).toBe(200);
    expect(response.json<VerifyTokenResponse>()).toEqual({ valid: false, user: null });
  });

  it('asks for authentication when there is no token', async () => {
    const response = await get(protectedUrl);
    expect(response.statusCode).toBe(401);
    expect(response.json<ErrorBody>().message).toBe('Authentication required');
    const notBearer = await get(protectedUrl, { authorization: `Basic ${account.token}` });
    expect(notBearer.json<ErrorBody>().message).toBe('Authentication required');
  });

  it('refuses a malformed token', async () => {
    await expectRefused('not.a.token', 'Invalid session, please log in again');
  });

  it('refuses an expired token', async () => {
    const expired = await signed(app.deps.config.jwtSecret, {
      sub: String(account.user.id),
      ver: 0,
      exp: Math.floor(Date.now() / 1000) - 60,
    });
    await expectRefused(expired, 'Session expired, please log in again');
  });

  it('refuses a token signed with another secret', async () => {
    const forged = await signed(new TextEncoder().encode('someone-elses-secret-of-32-characters!'), {
      sub: String(account.user.id),
      ver: 0,
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    await expectRefused(forged, 'Invalid session, please log in again');
  });

  it('refuses a token for an account that does not exist', async () => {
    const orphan = await signed(app.deps.config.jwtSecret, {
      sub: '999999',
      ver: 0,
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
    await expectRefused(orphan, 'Session expired, please log in again');
  });

  it('refuses a token without an expiry, or without an id to revoke it by, however well signed', async () => {
    const endless = await new SignJWT({ role: 'user', ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(account.user.id))
      .setJti('no-expiry')
      .setIssuedAt()
      .sign(app.deps.config.jwtSecret);
    await expectRefused(endless, 'Invalid session, please log in again');
    const nameless = await new SignJWT({ role: 'user', ver: 0 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(account.user.id))
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(app.deps.config.jwtSecret);
    await expectRefused(nameless, 'Invalid session, please log in again');
  });

  it('refuses, without a 500, a token naming an account id no account can have', async () => {
    for (const sub of ['0', '2147483648', '99999999999999999999']) {
      const impossible = await signed(app.deps.config.jwtSecret, {
        sub,
        ver: 0,
        exp: Math.floor(Date.now() / 1000) + 3600,
      });
      await expectRefused(impossible, 'Invalid session, please log in again');
    }
  });

  it('refuses a token used before once it expires', async () => {
    const later = await createUser(app);
    expect((await get(protectedUrl, authHeader(later.token))).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 7 * 24 * 3600 * 1000 + 60_000);
      await expectRefused(later.token, 'Session expired, please log in again');
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a token used before with its signature changed', async () => {
    expect((await get(protectedUrl, authHeader(account.token))).statusCode).toBe(200);
    const [header, payload, signature = ''] = account.token.split('.');
    const middle = Math.floor(signature.length / 2);
    const changed = signature[middle] === 'A' ? 'B' : 'A';
    const forged = `${header}.${payload}.${signature.slice(0, middle)}${changed}${signature.slice(middle + 1)}`;
    await expectRefused(forged, 'Invalid session, please log in again');
  });

  it('remembers a bounded number of verified tokens, however many are presented', async () => {
    const secret = new TextEncoder().encode('a-secret-of-this-test-alone-32-characters');
    const exp = Math.floor(Date.now() / 1000) + 3600;
    for (let index = 1; index <= 10_050; index += 1) {
      await verifyAccessToken(secret, await signed(secret, { sub: String(index), ver: 0, exp }));
    }
    expect(verifiedTokensKept(secret)).toBe(10_000);
  });

  it('issues tokens that last 7 days', async () => {
    const [, payload = ''] = account.token.split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iat: number; exp: number };
    expect(claims.exp - claims.iat).toBe(7 * 24 * 3600);
  });
});

describe('logging out', () => {
  const profile = (token: string) => get('/api/auth/profile/user', authHeader(token));
  const secondSession = async (account: TestAccount) => {
    const login = await post('/api/auth/login/user', { email: account.email, password: account.password });
    expect(login.statusCode).toBe(200);
    return login.json<AuthResponse>().access_token;
  };

  it('revokes the token it was sent with, and no other session', async () => {
    const account = await createUser(app);
    const other = await secondSession(account);
    const logout = await post('/api/auth/logout', {}, authHeader(account.token));
    expect(logout.statusCode).toBe(204);
    const after = await profile(account.token);
    expect(after.statusCode).toBe(401);
    expect(after.json<ErrorBody>().message).toBe('Session expired, please log in again');
    expect((await profile(other)).statusCode).toBe(200);
    // Again, or with no usable token: nothing to do, and nothing refused.
    expect((await post('/api/auth/logout', {}, authHeader(account.token))).statusCode).toBe(204);
    expect((await post('/api/auth/logout', {})).statusCode).toBe(204);
    expect((await post('/api/auth/logout', {}, authHeader('not.a.token'))).statusCode).toBe(204);
  });

  it('from all devices revokes every session of the account, and needs one', async () => {
    const account = await createUser(app);
    const other = await secondSession(account);
    const bystander = await createUser(app);
    expect((await post('/api/auth/logout-all', {}, authHeader(other))).statusCode).toBe(204);
    expect((await profile(account.token)).statusCode).toBe(401);
    expect((await profile(other)).statusCode).toBe(401);
    expect((await profile(bystander.token)).statusCode).toBe(200);
    expect((await secondSession(account)).length).toBeGreaterThan(0);
    expect((await post('/api/auth/logout-all', {})).statusCode).toBe(401);
  });
});

describe("an account's open sockets", () => {
  it('are disconnected by a password change and by a logout from all devices, and stay out', async () => {
    const clients = new LiveClients(await listen(app));
    try {
      const account = await createUser(app);
      const socket = await clients.connect(account);
      const closed = new Promise((resolve) => socket.once('disconnect', resolve));
      const changed = await post(
        '/api/auth/change-password',
        { currentPassword: account.password, newPassword: 'a-brand-new-password' },
        authHeader(account.token),
      );
      expect(changed.statusCode).toBe(200);
      await closed;
      await expect(clients.connect(account)).rejects.toThrow();

      const renewed = { ...account, token: changed.json<AuthResponse>().access_token };
      const again = await clients.connect(renewed);
      const bystander = await clients.connect(await createUser(app));
      const closedAgain = new Promise((resolve) => again.once('disconnect', resolve));
      expect((await post('/api/auth/logout-all', {}, authHeader(renewed.token))).statusCode).toBe(204);
      await closedAgain;
      await expect(clients.connect(renewed)).rejects.toThrow();
      expect(bystander.connected).toBe(true);
    } finally {
      clients.closeAll();
    }
  });
});

describe('GET /api/auth/profile/{creator,user}', () => {
  it('refuses the other role with 403', async () => {
    const creator = await createCreator(app);
    const spectator = await createUser(app);
    const creatorOnUser = await get('/api/auth/profile/user', authHeader(creator.token));
    expect(creatorOnUser.statusCode).toBe(403);
    expect(creatorOnUser.json<ErrorBody>()).toEqual({
      statusCode: 403,
      code: 'FORBIDDEN',
      message: 'Only spectator accounts can do this',
    });
    const userOnCreator = await get('/api/auth/profile/creator', authHeader(spectator.token));
    expect(userOnCreator.statusCode).toBe(403);
    expect(userOnCreator.json<ErrorBody>().message).toBe('Only creator accounts can do this');
  });
});

describe('POST /api/auth/change-password', () => {
  it('changes the password, revokes every older token and answers a fresh one', async () => {
    const account = await createCreator(app);
    const otherDevice = await post('/api/auth/login/creator', {
      email: account.email,
      password: account.password,
    });
    const otherToken = otherDevice.json<AuthResponse>().access_token;

    const response = await post(
      '/api/auth/change-password',
      { currentPassword: account.password, newPassword: 'a-brand-new-password' },
      authHeader(account.token),
    );
    expect(response.statusCode).toBe(200);
    const body = response.json<AuthResponse>();
    expect(body.user).toEqual(account.user);

    for (const revoked of [account.token, otherToken]) {
      const refused = await get('/api/auth/profile/creator', authHeader(revoked));
      expect(refused.statusCode).toBe(401);
      expect(refused.json<ErrorBody>().message).toBe('Session expired, please log in again');
      const verified = await get('/api/auth/verify-token', authHeader(revoked));
      expect(verified.json<VerifyTokenResponse>()).toEqual({ valid: false, user: null });
    }
    expect((await get('/api/auth/profile/creator', authHeader(body.access_token))).statusCode).toBe(200);

    const oldPassword = await post('/api/auth/login/creator', {
      email: account.email,
      password: account.password,
    });
    expect(oldPassword.statusCode).toBe(401);
    const newPassword = await post('/api/auth/login/creator', {
      email: account.email,
      password: 'a-brand-new-password',
    });
    expect(newPassword.statusCode).toBe(200);
  });

  it('answers a wrong current password with 400 on that field, keeping the session', async () => {
    const account = await createUser(app);
    const response = await post(
      '/api/auth/change-password',
      { currentPassword: 'not-my-password', newPassword: 'a-brand-new-password' },
      authHeader(account.token),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Current password is incorrect',
      fields: { currentPassword: 'Current password is incorrect' },
    });
    expect((await get('/api/auth/profile/user', authHeader(account.token))).statusCode).toBe(200);
  });

  it('validates both fields and needs a session', async () => {
    const account = await createUser(app);
    const invalid = await post(
      '/api/auth/change-password',
      { newPassword: 'short' },
      authHeader(account.token),
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json<ErrorBody>().fields).toEqual({
      currentPassword: 'Current password is required',
      newPassword: 'Password must be at least 8 characters',
    });
    const anonymous = await post('/api/auth/change-password', {
      currentPassword: account.password,
      newPassword: 'a-brand-new-password',
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('rate limits', () => {
  it('allows 20 login and registration requests a minute per IP by default, then 429', async () => {
    const perMinute = app.deps.config.authRequestsPerIpPerMinute;
    expect(perMinute).toBe(20);
    const remoteAddress = nextRemoteAddress();
    const attempt = (index: number) =>
      app.inject({
        method: 'POST',
        url: index % 2 === 0 ? '/api/auth/login/user' : '/api/auth/register/user',
        remoteAddress,
        payload: { email: 'not-an-email' },
      });
    for (let index = 0; index < perMinute; index += 1) {
      expect((await attempt(index)).statusCode).toBe(400);
    }
    const limited = await attempt(perMinute);
    expect(limited.statusCode).toBe(429);
    expect(limited.json<ErrorBody>()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(limited.json<ErrorBody>().message).toMatch(
      /^Too many attempts\. Please try again in \d+ seconds?\.$/,
    );
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

    const otherAddress = await api(app, { method: 'POST', url: '/api/auth/login/user', payload: {} });
    expect(otherAddress.statusCode).toBe(400);
  });

  it('tells clients behind a trusted proxy apart by X-Forwarded-For, and ignores it otherwise', async () => {
    // nextRemoteAddress() hands out 10.x addresses: here they play the proxy.
    const behindProxy = await createTestApp({ TRUST_PROXY: '10.0.0.0/8' });
    try {
      const proxyAddress = nextRemoteAddress();
      const attempt = (target: App, forwardedFor: string) =>
        target.inject({
          method: 'POST',
          url: '/api/auth/login/user',
          remoteAddress: proxyAddress,
          headers: { 'x-forwarded-for': forwardedFor },
          payload: { email: 'not-an-email' },
        });
      const perMinute = behindProxy.deps.config.authRequestsPerIpPerMinute;
      for (let client = 0; client <= perMinute; client += 1) {
        expect(
          (await attempt(behindProxy, `203.0.113.${client}`)).statusCode,
          `proxied client ${client}`,
        ).toBe(400);
      }
      for (let client = 0; client < perMinute; client += 1) {
        expect((await attempt(app, `198.51.100.${client}`)).statusCode, `direct ${client}`).toBe(400);
      }
      expect((await attempt(app, '198.51.100.250')).statusCode).toBe(429);
    } finally {
      await behindProxy.close();
    }
  });

  /** A login for `email` from `remoteAddress` (a new address unless given). */
  const logIn = (email: string, password: string, remoteAddress = nextRemoteAddress()) =>
    app.inject({ method: 'POST', url: '/api/auth/login/user', remoteAddress, payload: { email, password } });
  const statuses = (responses: Array<{ statusCode: number }>) =>
    responses.reduce<Record<number, number>>(
      (counts, { statusCode }) => ({ ...counts, [statusCode]: (counts[statusCode] ?? 0) + 1 }),
      {},
    );

  it(`stops an address after ${FAILURES_PER_EMAIL_AND_ADDRESS.max} wrong passwords for one email, counted before checking`, async () => {
    const account = await createUser(app);
    const address = nextRemoteAddress();
    // Fewer than the address's requests a minute (all routes), so only the failures limit can refuse.
    const guesses = await Promise.all(
      Array.from({ length: 15 }, (_, guess) => logIn(account.email, `wrong-password-${guess}`, address)),
    );
    expect(statuses(guesses)).toEqual({ 401: FAILURES_PER_EMAIL_AND_ADDRESS.max, 429: 5 });

    const again = await logIn(account.email, account.password, address);
    expect(again.statusCode).toBe(429);
    expect(again.json<ErrorBody>().message).toBe('Too many attempts. Please try again in 15 minutes.');
    // The owner, elsewhere, is not locked out.
    expect((await logIn(account.email, account.password)).statusCode).toBe(200);
  });

  it('lets many addresses guessing one email together only one guess at a time, further and further apart', async () => {
    const account = await createUser(app);
    const free = await Promise.all(
      Array.from({ length: 100 }, (_, guess) => logIn(account.email, `wrong-password-${guess}`)),
    );
    // The free guesses, and the first turn; every other one was refused before its password was checked.
    expect(statuses(free)).toEqual({
      401: FREE_FAILURES_PER_EMAIL.max + 1,
      429: 100 - FREE_FAILURES_PER_EMAIL.max - 1,
    });

    const waiting = await logIn(account.email, 'wrong-again');
    expect(waiting.statusCode).toBe(429);
    const firstWait = Number(waiting.headers['retry-after']);
    await new Promise((resolve) => setTimeout(resolve, firstWait * 1000 + 100));
    expect((await logIn(account.email, 'wrong-once-more')).statusCode).toBe(401);
    const longerWait = Number((await logIn(account.email, 'and-again')).headers['retry-after']);
    expect(longerWait).toBeGreaterThan(firstWait);
  });

  it('does not slow the owner on an address they signed in from before', async () => {
    const account = await createUser(app);
    const home = nextRemoteAddress();
    expect((await logIn(account.email, account.password, home)).statusCode).toBe(200);
    for (let guess = 0; guess <= FREE_FAILURES_PER_EMAIL.max; guess += 1) {
      expect((await logIn(account.email, `wrong-password-${guess}`)).statusCode).toBe(401);
    }
    // A stranger's right password waits its turn; the owner at home does not.
    expect((await logIn(account.email, account.password)).statusCode).toBe(429);
    expect((await logIn(account.email, account.password, home)).statusCode).toBe(200);
  });

  it('never locks out an owner who logs in successfully again and again', async () => {
    const account = await createUser(app);
    for (let login = 0; login <= FREE_FAILURES_PER_EMAIL.max; login += 1) {
      const response = await post('/api/auth/login/user', {
        email: account.email,
        password: account.password,
      });
      expect(response.statusCode).toBe(200);
    }
  });

  it(`stops probing one email through registration after ${CONFLICTS_PER_EMAIL.max} conflicts`, async () => {
    const account = await createUser(app);
    const register = () =>
      post('/api/auth/register/user', {
        firstName: 'Probe',
        lastName: 'Bot',
        email: account.email,
        password: 'whatever-password',
      });
    for (let conflict = 0; conflict < CONFLICTS_PER_EMAIL.max; conflict += 1) {
      expect((await register()).statusCode).toBe(409);
    }
    expect((await register()).statusCode).toBe(429);
  });
});
