import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { anEvent, aUser, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

vi.mock('socket.io-client', async () => (await import('../testing/fake-socket')).fakeSocketIoClient());

const fan = aUser();

describe('a watch link from a mail', () => {
  it('signs the ticket holder in and lands on the stream, signed out before', async () => {
    localStorage.clear();
    const calls = stubApi({
      'POST /auth/watch-link': { body: { access_token: 'from-the-link', user: fan, eventId: 4 } },
      'GET /events/4': { body: anEvent({ id: 4, name: 'Jazz Night' }) },
      'GET /live/config': { body: { iceServers: [], media: 'p2p' } },
    });
    const { location } = renderApp('/watch/link-token-abc');
    expect(await screen.findByRole('heading', { name: 'Jazz Night' })).toBeInTheDocument();
    expect(location()).toBe('/events/4/stream');
    expect(localStorage.getItem('token')).toBe('from-the-link');
    const linkCall = calls.find((call) => call.path === '/auth/watch-link');
    expect(linkCall?.body).toEqual({ token: 'link-token-abc' });
    // Anonymous: whatever session the device had, the link's holder is who watches.
    expect(linkCall?.headers.get('authorization')).toBeNull();
  });

  it('says why a stale link fails and offers the login', async () => {
    const message = 'This watch link is invalid or has expired. Log in to watch with your account.';
    stubApi({
      'POST /auth/watch-link': {
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_FAILED', message, fields: { token: message } },
      },
    });
    const { location, user } = renderApp('/watch/stale');
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'This link does not open a show' })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Log in' }));
    expect(location()).toBe('/user/login');
  });
});
