import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aCreator, aUser, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A browser whose clock is set to `timeZone`. */
function browserIn(timeZone: string) {
  const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
  vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
    this: Intl.DateTimeFormat,
  ) {
    return { ...resolved.call(this), timeZone };
  });
}

describe.each([
  { screenPath: '/register', role: 'creator', account: aCreator() },
  { screenPath: '/user/register', role: 'user', account: aUser() },
] as const)('registration at $screenPath', ({ screenPath, role, account }) => {
  it("sends the browser's time zone with the new account", async () => {
    browserIn('Europe/Lisbon');
    const calls = stubApi({
      [`POST /auth/register/${role}`]: { status: 201, body: { access_token: 'first', user: account } },
      [`POST /auth/login/${role}`]: { body: { access_token: 'signed-in', user: account } },
    });
    const { user } = renderApp(screenPath);

    await user.type(await screen.findByLabelText('First name'), 'Ada');
    await user.type(screen.getByLabelText('Last name'), 'Lovelace');
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(localStorage.getItem('token')).toBe('signed-in'));
    expect(calls.find(({ path }) => path === `/auth/register/${role}`)?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      password: 'correct-horse',
      timeZone: 'Europe/Lisbon',
    });
  });
});
