import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test/api-stub';
import { api, ApiError, errorMessage, onUnauthorized } from './api-client';

const unauthorized = {
  status: 401,
  body: { statusCode: 401, code: 'UNAUTHORIZED', message: 'Invalid email or password' },
};

describe('api client', () => {
  const listener = vi.fn();
  const unsubscribe = onUnauthorized(listener);
  afterEach(() => listener.mockClear());
  afterAll(unsubscribe);

  it('sends the stored token as a bearer credential and JSON bodies', async () => {
    localStorage.setItem('token', 'abc');
    const calls = stubApi({ 'PATCH /auth/profile/user': { body: { ok: true } } });

    await expect(api.patch('/auth/profile/user', { firstName: 'Ada' })).resolves.toEqual({ ok: true });

    expect(calls[0]?.headers.get('Authorization')).toBe('Bearer abc');
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(calls[0]?.body).toEqual({ firstName: 'Ada' });
  });

  it('passes FormData through and lets the browser set the multipart header', async () => {
    const calls = stubApi({ 'POST /auth/profile/creator': { body: {} } });
    const form = new FormData();
    form.append('nickname', 'grace');

    await api.post('/auth/profile/creator', form);

    expect(calls[0]?.body).toBe(form);
    expect(calls[0]?.headers.has('Content-Type')).toBe(false);
  });

  it('throws the error body as an ApiError with its field reasons', async () => {
    stubApi({
      'POST /auth/change-password': {
        status: 400,
        body: {
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: 'Current password is incorrect',
          fields: { currentPassword: 'Current password is incorrect' },
        },
      },
    });

    const error = await api.post('/auth/change-password', {}).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      fields: { currentPassword: 'Current password is incorrect' },
    });
    expect(errorMessage(error, 'Failed to update password')).toBe('Current password is incorrect');
  });

  it('falls back to the screen text when the answer carries no message', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('<html>Bad gateway</html>', { status: 502 })),
    );

    const error = await api.get('/orders').catch((caught: unknown) => caught);

    expect(error).toMatchObject({ status: 502 });
    expect(errorMessage(error, 'Login error')).toBe('Login error');
  });

  it('clears the session and signals a sign-out when a call that carried a token gets a 401', async () => {
    localStorage.setItem('token', 'expired');
    localStorage.setItem('user', '{}');
    stubApi({ 'GET /orders': unauthorized });

    await expect(api.get('/orders')).rejects.toMatchObject({ status: 401 });

    expect(localStorage.getItem('token')).toBeNull();
    expect(localStorage.getItem('user')).toBeNull();
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('leaves the session alone on a 401 of an anonymous call, such as a bad password at login', async () => {
    localStorage.setItem('token', 'still-good');
    const calls = stubApi({ 'POST /auth/login/user': unauthorized });

    await expect(
      api.post('/auth/login/user', { email: 'a@b.co', password: 'wrong' }, { anonymous: true }),
    ).rejects.toMatchObject({ status: 401, message: 'Invalid email or password' });

    expect(calls[0]?.headers.has('Authorization')).toBe(false);
    expect(localStorage.getItem('token')).toBe('still-good');
    expect(listener).not.toHaveBeenCalled();
  });
});
