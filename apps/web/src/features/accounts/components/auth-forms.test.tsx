import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCreator, aUser, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const invalidCredentials = {
  status: 401,
  body: { statusCode: 401, code: 'UNAUTHORIZED', message: 'Invalid email or password' },
};

async function fillLogin(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  await user.type(await screen.findByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('login', () => {
  it('shows the server message on a bad password and stays on the login page', async () => {
    const calls = stubApi({ 'POST /auth/login/user': invalidCredentials });
    const { user, location } = renderApp('/user/login?redirect=%2Fuser%2Fdashboard');

    await fillLogin(user, 'ada@example.com', 'wrong-password');

    expect(await screen.findByText('Invalid email or password')).toBeInTheDocument();
    expect(location()).toBe('/user/login?redirect=%2Fuser%2Fdashboard');
    expect(calls[0]?.headers.has('Authorization')).toBe(false);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('validates with the shared schema before calling the server', async () => {
    const calls = stubApi({});
    const { user } = renderApp('/login');

    await user.type(await screen.findByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(screen.getByLabelText('Email')).toHaveAccessibleErrorMessage(
      'Email must be a valid email address',
    );
    expect(screen.getByLabelText('Password')).toHaveAccessibleErrorMessage('Password is required');
    expect(calls).toHaveLength(0);
  });

  it('takes a spectator to the redirect target after signing in', async () => {
    stubApi({ 'POST /auth/login/user': { body: { access_token: 'fresh', user: aUser() } } });
    const { user, location } = renderApp('/user/login?redirect=%2Fevents%2F4%2Fcheckout');

    await fillLogin(user, 'ada@example.com', 'correct-horse');

    expect(await screen.findByText('Welcome!')).toBeInTheDocument();
    expect(location()).toBe('/events/4/checkout');
    expect(localStorage.getItem('token')).toBe('fresh');
  });

  it('ignores a redirect to another site and uses the spectator dashboard', async () => {
    stubApi({ 'POST /auth/login/user': { body: { access_token: 'fresh', user: aUser() } } });
    const { user, location } = renderApp('/user/login?redirect=%2F%2Fevil.example');

    await fillLogin(user, 'ada@example.com', 'correct-horse');

    await screen.findByText('Welcome!');
    expect(location()).toBe('/user/dashboard');
  });

  it('takes a creator to the creator dashboard', async () => {
    stubApi({ 'POST /auth/login/creator': { body: { access_token: 'fresh', user: aCreator() } } });
    const { user, location } = renderApp('/login');

    await fillLogin(user, 'grace@example.com', 'correct-horse');

    expect(await screen.findByRole('heading', { name: 'Creator Dashboard' })).toBeInTheDocument();
    expect(location()).toBe('/creators/dashboard');
  });

  it('takes a creator back to the studio link that asked for a login', async () => {
    stubApi({ 'POST /auth/login/creator': { body: { access_token: 'fresh', user: aCreator() } } });
    const { user, location } = renderApp('/login?redirect=%2Fcreators%2Fdashboard%2Fmy-events');

    await fillLogin(user, 'grace@example.com', 'correct-horse');

    await waitFor(() => expect(location()).toBe('/creators/dashboard/my-events'));
  });

  it('points spectators to their own login page, keeping the redirect', async () => {
    stubApi({});
    renderApp('/login?redirect=%2Fuser%2Fdashboard');

    expect(await screen.findByText(/Spectators who bought tickets must log in at/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '/user/login' })).toHaveAttribute(
      'href',
      '/user/login?redirect=%2Fuser%2Fdashboard',
    );
  });
});

describe('registration', () => {
  it('creates the account, signs in with the same credentials and follows the redirect', async () => {
    const calls = stubApi({
      'POST /auth/register/user': { status: 201, body: { access_token: 'first', user: aUser() } },
      'POST /auth/login/user': { body: { access_token: 'signed-in', user: aUser() } },
    });
    const { user, location } = renderApp('/user/register?redirect=%2Fevents%2F4');

    expect(await screen.findByRole('heading', { name: 'Create User Account' })).toBeInTheDocument();
    await user.type(screen.getByLabelText('First name'), 'Ada');
    await user.type(screen.getByLabelText('Last name'), 'Lovelace');
    await user.type(screen.getByLabelText('Email'), 'Ada@Example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Account created and logged in successfully!')).toBeInTheDocument();
    expect(location()).toBe('/events/4');
    const authCalls = calls.filter(({ path }) => path.startsWith('/auth/'));
    expect(authCalls.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'POST /auth/register/user',
      'POST /auth/login/user',
    ]);
    expect(authCalls[1]?.body).toEqual({ email: 'ada@example.com', password: 'correct-horse' });
    expect(localStorage.getItem('token')).toBe('signed-in');
  });

  it("shows the server's field reasons next to the fields and its message as a toast", async () => {
    stubApi({
      'POST /auth/register/creator': {
        status: 409,
        body: {
          statusCode: 409,
          code: 'CONFLICT',
          message: 'An account with this email already exists',
          fields: { email: 'This email is already registered' },
        },
      },
    });
    const { user, location } = renderApp('/register');

    await user.type(await screen.findByLabelText('First name'), 'Grace');
    await user.type(screen.getByLabelText('Last name'), 'Hopper');
    await user.type(screen.getByLabelText('Email'), 'grace@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct-horse');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('An account with this email already exists')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAccessibleErrorMessage('This email is already registered');
    expect(location()).toBe('/register');
  });
});
