import { act, screen, waitFor, within } from '@testing-library/react';
import { VIEWER_RETRY_MS } from '@stagedoor/shared/limits';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  aCreator,
  anEvent,
  aPublicCreator,
  aUser,
  signedInAs,
  stubApi,
  type Handler,
} from '../../../test/api-stub';
import { openSocketAhead } from '../../../lib/socket';
import { renderApp } from '../../../test/render-app';
import { createdSockets } from '../testing/fake-socket';

vi.mock('socket.io-client', async () => (await import('../testing/fake-socket')).fakeSocketIoClient());

const grace = aCreator();
const ada = aUser();

const liveConfig = { iceServers: [{ urls: 'stun:stun.example.org' }], media: 'p2p' };

function stubStreamApi(user = ada, config: Handler = { body: liveConfig }) {
  return stubApi({
    ...signedInAs(user),
    'GET /events/4': { body: anEvent() },
    'GET /creators/3': {
      body: aPublicCreator({
        creatorInfo: { headerImageUrl: null, profileImageUrl: 'grace.png', biography: null },
      }),
    },
    'GET /live/config': config,
  });
}

const latestSocket = () => {
  const socket = createdSockets.at(-1);
  if (!socket) throw new Error('the page opened no socket');
  return socket;
};

beforeEach(() => {
  createdSockets.length = 0;
});

describe('event stream page', () => {
  it('shows the event with its creator, and a viewer panel and chat to a spectator', async () => {
    stubStreamApi(ada);
    renderApp('/events/4/stream');

    expect(await screen.findByText('Loading event...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Jazz Night' })).toBeInTheDocument();
    const header = screen.getByRole('banner');
    expect(within(header).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: 'Back to creator page' })).toHaveAttribute(
      'href',
      '/creator/grace',
    );
    await waitFor(() =>
      expect(within(header).getByRole('img', { name: 'Grace Hopper' })).toHaveAttribute(
        'src',
        '/api/creators/profile-image/grace.png',
      ),
    );
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();

    expect(await screen.findByRole('region', { name: 'Stream' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start Stream' })).not.toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Chat' })).toBeInTheDocument();
    expect(screen.getByText('No messages yet. Be the first to write!')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });

  it("gives the event's creator the broadcaster panel", async () => {
    stubStreamApi(grace);
    renderApp('/creators/dashboard/events/4/stream');

    expect(await screen.findByRole('region', { name: 'Broadcast' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Use camera' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Share screen' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Stream' })).toBeDisabled();
  });

  it('opens one websocket with the bearer token, joins once connected and closes it on leaving', async () => {
    stubStreamApi(ada);
    const { unmount } = renderApp('/events/4/stream');
    await screen.findByRole('region', { name: 'Stream' });

    expect(createdSockets).toHaveLength(1);
    const socket = latestSocket();
    expect(socket.options).toMatchObject({
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: 'Bearer stored-token' },
      reconnection: true,
      reconnectionAttempts: 5,
      reconnectionDelay: 1000,
    });
    socket.onAck('joinStream', () => ({
      success: false,
      code: 'STREAM_NOT_LIVE',
      error: 'Stream not found',
    }));
    socket.onAck('joinChat', () => ({ success: true, messages: [] }));

    socket.serverConnect();

    expect(await screen.findByText('Waiting for stream to start')).toBeInTheDocument();
    expect(socket.payloadsOf('joinStream')).toEqual([{ eventId: 4, userId: ada.id }]);
    expect(socket.payloadsOf('joinChat')).toEqual([{ eventId: 4 }]);

    const disconnect = vi.spyOn(socket, 'disconnect');
    unmount();
    await act(async () => undefined);
    expect(disconnect).toHaveBeenCalled();
  });

  it('says the server refused the connection to a viewer', async () => {
    stubStreamApi(ada);
    renderApp('/events/4/stream');
    await screen.findByRole('region', { name: 'Stream' });
    const socket = latestSocket();
    socket.active = false;

    socket.serverEmit('connect_error', new Error('Authentication error'));

    expect(screen.getByText('Could not authenticate. Please log in again.')).toBeInTheDocument();
  });

  it.each([
    [
      'TOO_MANY_CONNECTIONS',
      'This account already has 10 live connections open: close one of them to connect here',
    ],
    ['RATE_LIMITED', 'Too many connection attempts: wait a minute and try again'],
  ])(
    "says in the server's words why it refused the account (%s), and tries again after a pause",
    async (code, message) => {
      stubStreamApi(ada);
      renderApp('/events/4/stream');
      await screen.findByRole('region', { name: 'Stream' });
      const socket = latestSocket();
      const reconnect = vi.spyOn(socket, 'connect');
      socket.active = false;
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      try {
        socket.serverEmit('connect_error', Object.assign(new Error(message), { data: { code } }));

        expect(screen.getByText(message)).toBeInTheDocument();
        expect(screen.queryByText('Could not authenticate. Please log in again.')).not.toBeInTheDocument();
        act(() => vi.advanceTimersByTime(VIEWER_RETRY_MS - 1));
        expect(reconnect).not.toHaveBeenCalled();
        act(() => vi.advanceTimersByTime(1));
        expect(reconnect).toHaveBeenCalledTimes(1);
      } finally {
        vi.useRealTimers();
      }
    },
  );

  it('says when the stream settings could not be loaded, and loads them again on request', async () => {
    let configLoads = 0;
    const calls = stubStreamApi(ada, () =>
      ++configLoads === 1
        ? { status: 429, body: { statusCode: 429, code: 'RATE_LIMITED', message: 'Too many requests' } }
        : { body: liveConfig },
    );
    const { user } = renderApp('/events/4/stream');

    expect(await screen.findByRole('alert')).toHaveTextContent('The stream settings could not be loaded.');
    expect(screen.queryByRole('region', { name: 'Stream' })).not.toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Chat' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('region', { name: 'Stream' })).toBeInTheDocument();
    expect(screen.queryByText('The stream settings could not be loaded.')).not.toBeInTheDocument();
    const configCalls = calls.filter(({ method, path }) => method === 'GET' && path === '/live/config');
    expect(configCalls).toHaveLength(2);
    // For this show: TURN credentials are given only for a show the account may relay now.
    expect(configCalls.map(({ query }) => query.get('eventId'))).toEqual(['4', '4']);
  });

  it('takes the socket opened ahead for its token, and opens its own when the token differs', async () => {
    stubStreamApi(ada);
    openSocketAhead('stored-token');
    const ahead = latestSocket();
    ahead.connected = true;
    const { unmount } = renderApp('/events/4/stream');
    await screen.findByRole('region', { name: 'Stream' });
    // Already connected: the page joins on it at once, without a second handshake.
    await waitFor(() => expect(ahead.payloadsOf('joinStream')).toEqual([{ eventId: 4, userId: ada.id }]));
    expect(createdSockets).toEqual([ahead]);
    unmount();

    openSocketAhead('an-older-token');
    const stale = latestSocket();
    renderApp('/events/4/stream');
    await screen.findByRole('region', { name: 'Stream' });
    expect(createdSockets).toHaveLength(3);
    expect(stale.active).toBe(false);
    expect(latestSocket().options).toMatchObject({ auth: { token: 'Bearer stored-token' } });
  });

  it('shows a page of its own when the event cannot be loaded', async () => {
    stubApi({ ...signedInAs(ada) });
    renderApp('/events/404/stream');

    expect(await screen.findByRole('heading', { level: 1, name: 'Event unavailable' })).toBeInTheDocument();
    // The socket opened with the page, beside the event's request, and closed once the event failed.
    await waitFor(() => expect(createdSockets.map((socket) => socket.active)).toEqual([false]));
  });
});
