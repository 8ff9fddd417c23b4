import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCreator, aUser, signedInAs, stubApi } from '../../test/api-stub';
import { renderApp } from '../../test/render-app';

async function openAccountMenu(user: ReturnType<typeof renderApp>['user'], firstName: string) {
  await user.click(await screen.findByRole('button', { name: firstName }));
  return screen.getByRole('menu');
}

function itemNames(menu: HTMLElement) {
  return within(menu)
    .getAllByRole('menuitem')
    .map((item) => item.textContent);
}

describe('top navigation', () => {
  it('offers Create account and Login to a signed-out visitor', async () => {
    stubApi({});
    renderApp('/');

    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Stagedoor' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
    expect(within(nav).getByRole('link', { name: 'Founders' })).toHaveAttribute('href', '/founders');
    expect(within(nav).getByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/register');
    expect(within(nav).getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(within(nav).queryByRole('button')).not.toBeInTheDocument();
  });

  it("gives a creator a menu named after them with the creator's destinations", async () => {
    stubApi(signedInAs(aCreator()));
    const { user } = renderApp('/');

    const menu = await openAccountMenu(user, 'Grace');

    expect(itemNames(menu)).toEqual([
      'Dashboard',
      'Create Event',
      'My Events',
      'Earnings',
      'My Profile',
      'Logout',
    ]);
    expect(within(menu).getByRole('menuitem', { name: 'Create Event' })).toHaveAttribute(
      'href',
      '/creators/dashboard/events/create',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Earnings' })).toHaveAttribute(
      'href',
      '/creators/dashboard/earnings',
    );
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });

  it("gives a spectator a menu with the spectator's destinations, without Earnings", async () => {
    stubApi(signedInAs(aUser()));
    const { user } = renderApp('/');

    const menu = await openAccountMenu(user, 'Ada');

    expect(itemNames(menu)).toEqual(['Dashboard', 'My Tickets', 'Profile', 'Logout']);
    expect(within(menu).getByRole('menuitem', { name: 'My Tickets' })).toHaveAttribute(
      'href',
      '/user/dashboard/my-tickets',
    );
  });

  it('logs out from the menu, has the server revoke the token, says so and goes home', async () => {
    const calls = stubApi({ ...signedInAs(aUser()), 'POST /auth/logout': { status: 204 } });
    const { user, location } = renderApp('/user/dashboard/profile');

    const menu = await openAccountMenu(user, 'Ada');
    await user.click(within(menu).getByRole('menuitem', { name: 'Logout' }));

    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(location()).toBe('/');
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
    const logout = calls.find(({ method, path }) => method === 'POST' && path === '/auth/logout');
    expect(logout?.headers.get('authorization')).toMatch(/^Bearer \S+$/);
  });

  it.each(['/events/4/stream', '/creators/dashboard/events/4/stream'])('is hidden on %s', async (path) => {
    stubApi(signedInAs(aCreator()));
    renderApp(path);

    await screen.findByRole('heading', { name: 'Event unavailable' });
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
  });

  it('is shown on other signed-in screens', async () => {
    stubApi(signedInAs(aCreator()));
    renderApp('/events/4');

    await screen.findByRole('heading', { name: 'Event unavailable' });
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });
});
