import { NICKNAME_HINT } from '@stagedoor/shared/accounts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { aCreator, aUser, signedInAs, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

describe('profile', () => {
  it('shows the nickname rule next to the field when the nickname breaks it, and saves nothing', async () => {
    const calls = stubApi({ ...signedInAs(aUser()), 'GET /auth/profile/user': { body: aUser() } });
    const { user } = renderApp('/user/dashboard/profile');

    const nickname = await screen.findByLabelText('Nickname');
    expect(nickname).toHaveAccessibleDescription(NICKNAME_HINT);
    expect(nickname).not.toHaveAttribute('aria-invalid');

    await user.clear(nickname);
    await user.type(nickname, 'ada lovelace!');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    expect(nickname).toHaveAttribute('aria-invalid', 'true');
    expect(nickname).toHaveAccessibleErrorMessage(NICKNAME_HINT);
    expect(calls.some(({ method }) => method === 'PATCH')).toBe(false);
  });

  it('logs out from all devices, says so and goes home', async () => {
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /auth/profile/user': { body: aUser() },
      'POST /auth/logout-all': { status: 204 },
    });
    const { user, location } = renderApp('/user/dashboard/profile');

    await user.click(await screen.findByRole('button', { name: 'Log out from all devices' }));

    expect(await screen.findByText('Logged out from all devices')).toBeInTheDocument();
    expect(location()).toBe('/');
    expect(localStorage.getItem('token')).toBeNull();
    expect(calls.some(({ method, path }) => method === 'POST' && path === '/auth/logout-all')).toBe(true);
  });

  it("shows 'New passwords do not match' next to the confirmation", async () => {
    const calls = stubApi({ ...signedInAs(aUser()), 'GET /auth/profile/user': { body: aUser() } });
    const { user } = renderApp('/user/dashboard/profile');

    await user.type(await screen.findByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(screen.getByLabelText('Confirm new password')).toHaveAccessibleErrorMessage(
      'New passwords do not match',
    );
    expect(calls.some(({ path }) => path === '/auth/change-password')).toBe(false);
  });

  it('saves a spectator profile as JSON and returns to the dashboard', async () => {
    const saved = aUser({ nickname: 'countess' });
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /auth/profile/user': { body: aUser() },
      'PATCH /auth/profile/user': { body: { user: saved } },
    });
    const { user, location } = renderApp('/user/dashboard/profile');

    expect(await screen.findByLabelText('Email')).toHaveAttribute('readonly');
    expect(screen.queryByLabelText('Biography')).not.toBeInTheDocument();
    const nickname = screen.getByLabelText('Nickname');
    await user.clear(nickname);
    await user.type(nickname, 'countess');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(location()).toBe('/user/dashboard');
    expect(calls.find(({ method }) => method === 'PATCH')?.body).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      nickname: 'countess',
      timeZone: 'UTC',
    });
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ nickname: 'countess' });
  });

  it('saves a creator profile as multipart, uploads a new profile image, and ignores its failure', async () => {
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'GET /auth/profile/creator': { body: aCreator({ biography: 'Compilers.' }) },
      'POST /auth/profile/creator': { body: aCreator({ biography: 'Compilers and COBOL.' }) },
      'POST /auth/profile/creator/profile-image': {
        status: 500,
        body: { statusCode: 500, code: 'INTERNAL', message: 'Storage down' },
      },
    });
    const { user, location } = renderApp('/creators/dashboard/profile');

    const biography = await screen.findByLabelText('Biography');
    expect(biography).toHaveValue('Compilers.');
    await user.type(biography, ' And COBOL.');
    await user.upload(
      screen.getByLabelText('Profile image'),
      new File(['png'], 'me.png', { type: 'image/png' }),
    );
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(location()).toBe('/creators/dashboard');
    const details = calls.find(
      ({ method, path }) => method === 'POST' && path === '/auth/profile/creator',
    )?.body;
    expect(details).toBeInstanceOf(FormData);
    expect((details as FormData).get('biography')).toBe('Compilers. And COBOL.');
    expect((details as FormData).has('headerImageUrl')).toBe(false);
    expect((details as FormData).get('timeZone')).toBe('UTC');
    const image = calls.find(({ path }) => path === '/auth/profile/creator/profile-image')?.body as FormData;
    expect((image.get('profileImageUrl') as File).name).toBe('me.png');
  });

  it('refuses an image that is not JPG or PNG, or is over 5MB', async () => {
    stubApi({ ...signedInAs(aCreator()), 'GET /auth/profile/creator': { body: aCreator() } });
    renderApp('/creators/dashboard/profile');
    // The file dialog honours `accept`, but a user can still pick "all files": skip that filter.
    const user = userEvent.setup({ applyAccept: false });

    const header = await screen.findByLabelText('Header image');
    await user.upload(header, new File(['gif'], 'banner.gif', { type: 'image/gif' }));
    expect(header).toHaveAccessibleErrorMessage('Only JPG and PNG images are allowed');

    await user.upload(
      header,
      new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' }),
    );
    expect(header).toHaveAccessibleErrorMessage('File size must be less than 5MB');
  });

  it('shows a server field reason next to its field, without repeating the same text in a toast', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /auth/profile/user': { body: aUser() },
      'PATCH /auth/profile/user': {
        status: 409,
        body: {
          statusCode: 409,
          code: 'CONFLICT',
          message: 'That nickname is taken',
          fields: { nickname: 'That nickname is taken' },
        },
      },
    });
    const { user, location } = renderApp('/user/dashboard/profile');

    await user.click(await screen.findByRole('button', { name: 'Update Profile' }));

    expect(await screen.findByText('That nickname is taken')).toHaveAttribute('id', 'nickname-error');
    expect(screen.getByLabelText('Nickname')).toHaveAccessibleErrorMessage('That nickname is taken');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(location()).toBe('/user/dashboard/profile');
  });

  it('keeps the new token after a password change, so the next call is authorised', async () => {
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /auth/profile/user': { body: aUser() },
      'POST /auth/change-password': { body: { access_token: 'after-change', user: aUser() } },
    });
    const { user } = renderApp('/user/dashboard/profile');

    await user.type(await screen.findByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(await screen.findByText('Password updated successfully!')).toBeInTheDocument();
    expect(calls.find(({ path }) => path === '/auth/change-password')?.body).toEqual({
      currentPassword: 'old-password',
      newPassword: 'new-password-1',
    });
    expect(localStorage.getItem('token')).toBe('after-change');
    expect(screen.getByLabelText('Current password')).toHaveValue('');
  });

  it('puts a wrong current password next to its field', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /auth/profile/user': { body: aUser() },
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
    const { user } = renderApp('/user/dashboard/profile');

    await user.type(await screen.findByLabelText('Current password'), 'not-it');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Confirm new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Update Password' }));

    expect(await screen.findByLabelText('Current password')).toHaveAccessibleErrorMessage(
      'Current password is incorrect',
    );
    expect(localStorage.getItem('token')).toBe('stored-token');
  });

  it("offers every time zone, starting at the account's, and saves the one picked", async () => {
    const lisbon = aUser({ timeZone: 'Europe/Lisbon' });
    const calls = stubApi({
      ...signedInAs(lisbon),
      'GET /auth/profile/user': { body: lisbon },
      'PATCH /auth/profile/user': { body: { user: { ...lisbon, timeZone: 'Asia/Tokyo' } } },
    });
    const { user, location } = renderApp('/user/dashboard/profile');

    const zone = await screen.findByLabelText('Time zone');
    expect(zone).toHaveValue('Europe/Lisbon');
    expect(zone).toHaveAccessibleDescription('Every date and time is shown in this zone.');
    const offered = within(zone)
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(offered).toEqual(Intl.supportedValuesOf('timeZone'));
    await user.selectOptions(zone, 'Asia/Tokyo');
    await user.click(screen.getByRole('button', { name: 'Update Profile' }));

    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(location()).toBe('/user/dashboard');
    expect(calls.find(({ method }) => method === 'PATCH')?.body).toMatchObject({ timeZone: 'Asia/Tokyo' });
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ timeZone: 'Asia/Tokyo' });
  });

  it('offers UTC, the zone of an account made without one, though the browser does not list it', async () => {
    stubApi({ ...signedInAs(aCreator()), 'GET /auth/profile/creator': { body: aCreator() } });
    renderApp('/creators/dashboard/profile');

    const zone = await screen.findByLabelText('Time zone');
    expect(zone).toHaveValue('UTC');
    expect(within(zone).getByRole('option', { name: 'UTC' })).toBeInTheDocument();
  });

  it("says 'Error loading profile' and still offers the session's details when loading fails", async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /auth/profile/user': {
        status: 404,
        body: { statusCode: 404, code: 'NOT_FOUND', message: 'Gone' },
      },
    });
    renderApp('/user/dashboard/profile');

    expect(await screen.findByText('Error loading profile')).toBeInTheDocument();
    expect(screen.getByLabelText('Nickname')).toHaveValue('ada');
  });
});
