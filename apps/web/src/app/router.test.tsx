import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCreator, aPublicCreator, anEvent, aUser, heldReply, signedInAs, stubApi } from '../test/api-stub';
import { renderApp } from '../test/render-app';

describe('routes', () => {
  it('sends a signed-out visitor of a login-required route to /login with the full target', async () => {
    stubApi({});
    const { location } = renderApp('/events/12/checkout?quantity=2');

    expect(await screen.findByRole('heading', { name: 'Creators' })).toBeInTheDocument();
    expect(location()).toBe('/login?redirect=%2Fevents%2F12%2Fcheckout%3Fquantity%3D2');
  });

  it('sends /user/dashboard to /login?redirect=%2Fuser%2Fdashboard', async () => {
    stubApi({});
    const { location } = renderApp('/user/dashboard');

    await screen.findByRole('heading', { name: 'Creators' });
    expect(location()).toBe('/login?redirect=%2Fuser%2Fdashboard');
  });

  it('lets a signed-in account through the guard', async () => {
    stubApi(signedInAs(aUser()));
    const { location } = renderApp('/user/dashboard/my-tickets');

    expect(await screen.findByRole('heading', { name: 'My Tickets' })).toBeInTheDocument();
    expect(location()).toBe('/user/dashboard/my-tickets');
  });

  it('redirects /join to /register', async () => {
    stubApi({});
    const { location } = renderApp('/join');

    expect(await screen.findByRole('heading', { name: 'Create Creator Account' })).toBeInTheDocument();
    expect(location()).toBe('/register');
  });

  it('shows a not-found page for an unknown path', async () => {
    stubApi({});
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  // Every API read answers 404 here: each screen must still render its own frame or failure state.
  it.each([
    ['/events', 'Upcoming Events'],
    ['/events/4', 'Event unavailable'],
    ['/events/4/checkout', 'Checkout'],
    ['/creator/grace', 'Creator not found'],
    ['/purchase-confirmation/4/2', 'Purchase Completed!'],
    ['/creators/dashboard/my-events', 'My Events'],
    ['/creators/dashboard/events/create', 'Create Event'],
    ['/creators/dashboard/events/4/edit', 'Edit Event'],
    ['/creators/dashboard/events/4/stream', 'Event unavailable'],
    ['/creators/dashboard/events/4/attendees', 'Attendees'],
    ['/creators/dashboard/my-tickets', 'My Tickets'],
    ['/creators/dashboard/earnings', 'Earnings'],
    ['/purchase-confirmation/4/2?order=11', 'Order unavailable'],
    ['/terms', 'Terms of Service'],
    ['/privacy-policy', 'Privacy Policy'],
    ['/founders', 'Become a Founding Partner'],
  ])('resolves %s', async (path, heading) => {
    stubApi(signedInAs(aCreator()));
    renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeInTheDocument();
  });
});

describe('document titles', () => {
  it.each([
    ['/', 'Go Live, Get Paid · Stagedoor'],
    ['/events', 'Upcoming Events · Stagedoor'],
    ['/events/4', 'Jazz Night · Stagedoor'],
    ['/events/4/checkout', 'Checkout · Jazz Night · Stagedoor'],
    ['/creator/grace', 'Grace Hopper · Stagedoor'],
    ['/creators/dashboard/my-tickets', 'My Tickets · Stagedoor'],
    ['/creators/dashboard/earnings', 'Earnings · Stagedoor'],
    ['/no/such/page', 'Page not found · Stagedoor'],
  ])('names the tab of %s "%s"', async (path, title) => {
    stubApi({
      ...signedInAs(aCreator()),
      'GET /events/4': { body: anEvent({ id: 4, name: 'Jazz Night' }) },
      'GET /creators/profile/grace': { body: aPublicCreator() },
    });
    renderApp(path);

    await waitFor(() => expect(document.title).toBe(title));
  });
});

describe('session start', () => {
  it('holds every route until verify-token has answered', async () => {
    const verification = heldReply();
    stubApi({ ...signedInAs(aUser()), 'GET /auth/verify-token': verification.handler });
    renderApp('/');

    expect(screen.getByRole('status')).toHaveTextContent('Checking your session');
    expect(screen.queryByRole('heading', { name: 'Go Live, Get Paid' })).not.toBeInTheDocument();

    verification.send({ body: { valid: true, user: aUser() } });

    expect(await screen.findByRole('heading', { name: 'Go Live, Get Paid' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ada' })).toBeInTheDocument();
  });

  it('clears a stored session the server no longer accepts, and then guards as signed out', async () => {
    stubApi({ ...signedInAs(aUser()), 'GET /auth/verify-token': { body: { valid: false, user: null } } });
    const { location } = renderApp('/user/dashboard');

    await screen.findByRole('heading', { name: 'Creators' });
    expect(location()).toBe('/login?redirect=%2Fuser%2Fdashboard');
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('clears the stored session when the check itself fails', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /auth/verify-token': { status: 500, body: { statusCode: 500, code: 'INTERNAL', message: 'Boom' } },
    });
    renderApp('/');

    expect(await screen.findByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem('user')).toBeNull();
  });

  it('signs out and goes to /login when the server rejects the token later on', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders/summary': {
        status: 401,
        body: { statusCode: 401, code: 'UNAUTHORIZED', message: 'Token expired' },
      },
    });
    const { location } = renderApp('/user/dashboard');

    await waitFor(() => expect(location()).toBe('/login?redirect=%2Fuser%2Fdashboard'));
    expect(screen.getByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBeNull();
  });
});
