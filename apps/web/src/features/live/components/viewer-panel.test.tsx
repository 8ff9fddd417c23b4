import { VIEWER_RETRY_MS, WAITING_FOR_STREAM_RETRY_MS } from '@stagedoor/shared/limits';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LiveConnection } from '../../../lib/socket';
import { formatLongDateTime } from '../../../lib/format';
import { anEvent } from '../../../test/api-stub';
import { holdClock } from '../../../test/waits';
import { FakeMediaStream, FakePeerConnection } from '../testing/fake-media';
import { FakeSocket } from '../testing/fake-socket';
import { useViewerStream } from '../hooks/use-viewer-stream';
import type { Event } from '@stagedoor/shared/events';
import { ViewerPanel } from './viewer-panel';

const connected: LiveConnection = { status: 'connected' };
const NO_FREE_SEAT_REASON =
  'You are already watching this stream on another screen, one for each ticket you hold. ' +
  'Close it there to watch here, or get another ticket.';
const notLive = { success: false, code: 'STREAM_NOT_LIVE', error: 'Stream not found' };
let peerConnections: FakePeerConnection[];

beforeEach(() => {
  // Timers also advance by themselves, so Testing Library's polling keeps working.
  vi.useFakeTimers({ shouldAdvanceTime: true });
  peerConnections = [];
  vi.stubGlobal(
    'RTCPeerConnection',
    class extends FakePeerConnection {
      constructor(configuration: RTCConfiguration) {
        super(configuration);
        peerConnections.push(this);
      }
    },
  );
  vi.stubGlobal('MediaStream', FakeMediaStream);
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A connected socket whose joinStream acknowledgements come from `answers`, one per join, the last repeating. */
function serverAnswering(...answers: unknown[]) {
  const socket = new FakeSocket();
  socket.connected = true;
  let joins = 0;
  socket.onAck('joinStream', () => answers[Math.min(joins++, answers.length - 1)]);
  return socket;
}

/** The panel as the stream page runs it: the viewer's stream beside it, no replay asked. */
function Panel({
  socket,
  connection,
  event,
}: {
  socket: FakeSocket;
  connection: LiveConnection;
  event: Event;
}) {
  const viewer = useViewerStream({
    socket: socket.asLiveSocket,
    isConnected: connection.status === 'connected',
    eventId: event.id,
    userId: 7,
    iceServers: [],
  });
  return <ViewerPanel viewer={viewer} connection={connection} event={event} timeZone="UTC" replay={null} />;
}

function renderPanel(socket: FakeSocket, connection: LiveConnection = connected, event = anEvent()) {
  const ui = (state: LiveConnection) => (
    <MemoryRouter>
      <Panel socket={socket} connection={state} event={event} />
    </MemoryRouter>
  );
  const view = render(ui(connection));
  return {
    ...view,
    user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }),
    showConnection: (state: LiveConnection) => view.rerender(ui(state)),
  };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const joins = (socket: FakeSocket) => socket.payloadsOf('joinStream').length;

async function startPlaying(socket: FakeSocket) {
  socket.serverEmit('offer', { offer: { type: 'offer', sdp: 'offer-sdp' }, from: 'broadcaster' });
  await advance(0);
  const connection = peerConnections.at(-1);
  act(() => connection?.deliverTracks());
  return connection;
}

describe('viewer panel', () => {
  it('waits for a stream that is not live yet and asks again 20 s later', async () => {
    const socket = serverAnswering(notLive);
    // Fake time stops running with the real one: the retry's delay counts to the millisecond from the
    // answer, however slowly this machine runs the test.
    holdClock();
    renderPanel(socket);
    await advance(0);

    expect(screen.getByText('Waiting for stream to start')).toBeInTheDocument();
    expect(socket.payloadsOf('joinStream')).toEqual([{ eventId: 4, userId: 7 }]);
    await advance(WAITING_FOR_STREAM_RETRY_MS - 1);
    expect(joins(socket)).toBe(1);
    await advance(1);
    expect(joins(socket)).toBe(2);
  });

  it('says a lost stream ended, joins again 5 s later, then waits while nothing is live', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 3 }, notLive);
    renderPanel(socket);
    expect(await screen.findByText('Connecting to stream...')).toBeInTheDocument();
    // The join's answer (the count) may come a moment after the panel says it is connecting.
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Viewers' })).toHaveTextContent('3 viewers'),
    );

    holdClock();
    socket.serverEmit('streamEnded', { reason: 'lost' });
    expect(screen.getByText('Stream has ended. Trying to reconnect...')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'The show has ended' })).not.toBeInTheDocument();
    await advance(VIEWER_RETRY_MS - 1);
    expect(joins(socket)).toBe(1);
    await advance(1);
    expect(joins(socket)).toBe(2);
    expect(screen.getByText('Waiting for stream to start')).toBeInTheDocument();
  });

  it('shows the end of the show when the creator stops it, and does not join again by itself', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 3 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    const connection = await startPlaying(socket);
    expect(screen.getByLabelText('Live stream')).toBeInTheDocument();

    socket.serverEmit('streamEnded', { reason: 'stopped' });

    expect(screen.getByRole('heading', { name: 'The show has ended' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the event page' })).toHaveAttribute('href', '/events/4');
    expect(screen.queryByText('Stream has ended. Trying to reconnect...')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Live stream')).not.toBeInTheDocument();
    expect(connection?.close).toHaveBeenCalled();
    await advance(30_000);
    expect(joins(socket)).toBe(1);
    expect(screen.getByRole('heading', { name: 'The show has ended' })).toBeInTheDocument();
  });

  it('joins at once when the show starts again after it ended', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 3 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    socket.serverEmit('streamEnded', { reason: 'stopped' });
    expect(screen.getByRole('heading', { name: 'The show has ended' })).toBeInTheDocument();

    socket.serverEmit('streamStarted', { eventId: 4 });

    expect(joins(socket)).toBe(2);
    expect(await screen.findByText('Connecting to stream...')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'The show has ended' })).not.toBeInTheDocument();
  });

  it('joins as soon as the server says the stream started, without waiting 20 s', async () => {
    const socket = serverAnswering(notLive, { success: true, viewerCount: 1 });
    renderPanel(socket);
    await screen.findByText('Waiting for stream to start');

    socket.serverEmit('streamStarted', { eventId: 4 });

    expect(joins(socket)).toBe(2);
    expect(await screen.findByText('Connecting to stream...')).toBeInTheDocument();
    // The 20 s retry of the wait was called off: no third join comes from it.
    await advance(20_000);
    expect(joins(socket)).toBe(2);
  });

  it("waits in a room with the poster, the start in the viewer's zone and a countdown, then plays by itself", async () => {
    const socket = serverAnswering(notLive, { success: true, viewerCount: 1 });
    holdClock();
    const event = anEvent({ date: new Date(Date.now() + 90 * 60_000).toISOString(), image: 'poster.png' });
    const { container } = renderPanel(socket, connected, event);
    await advance(0);

    expect(screen.getByText('Waiting for stream to start')).toHaveAttribute('role', 'status');
    expect(container.querySelector('img')).toHaveAttribute('src', '/api/events/image/poster.png');
    const startsAt = formatLongDateTime(event.date, 'UTC');
    expect(screen.getByText(`Starts ${startsAt}`)).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Viewers' })).not.toBeInTheDocument();
    const timer = screen.getByRole('timer', { name: 'Time until the show' });
    expect(timer).toHaveTextContent('0 days 1 hour 30 minutes 0 seconds');
    await advance(1000);
    expect(timer).toHaveTextContent('0 days 1 hour 29 minutes 59 seconds');

    socket.serverEmit('streamStarted', { eventId: 4 });
    await startPlaying(socket);
    expect(screen.getByLabelText('Live stream')).toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
  });

  it('says the show starts any moment once its time has come', async () => {
    const socket = serverAnswering(notLive);
    renderPanel(socket, connected, anEvent({ date: new Date(Date.now() - 60_000).toISOString() }));
    expect(
      await screen.findByText('The creator will start any moment now. The show plays here by itself.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
  });

  it('tells the viewer the creator is reconnecting during a studio reload, over the last frame', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    const first = await startPlaying(socket);

    socket.serverEmit('streamReconnecting');
    expect(screen.getByText('The creator is reconnecting…')).toHaveAttribute('role', 'status');
    expect(screen.getByLabelText('Live stream')).toBeInTheDocument();
    // The reloaded studio's old connection fails: the frame stays, and so does the explanation.
    act(() => first?.changeState('failed'));
    expect(screen.getByText('The creator is reconnecting…')).toHaveAttribute('role', 'status');
    expect(screen.getByLabelText('Live stream')).toBeInTheDocument();

    socket.serverEmit('streamResumed');
    await startPlaying(socket);
    expect(screen.queryByText('The creator is reconnecting…')).not.toBeInTheDocument();
    expect(screen.queryByText('Connection lost. Trying to reconnect...')).not.toBeInTheDocument();
  });

  it('tells a fan whose ticket was refunded so, with the way to their tickets, and asks nothing more', async () => {
    const socket = serverAnswering({
      success: false,
      code: 'TICKET_REFUNDED',
      error: 'This show was cancelled and your ticket refunded',
    });
    renderPanel(socket);

    expect(
      await screen.findByRole('heading', { name: 'This show was cancelled and your ticket refunded' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'My Tickets' })).toHaveAttribute(
      'href',
      '/user/dashboard/my-tickets',
    );
    expect(screen.queryByText('Could not join stream')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    await advance(60_000);
    expect(joins(socket)).toBe(1);
  });

  it('does not join again on a start while it is already in the stream', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    await startPlaying(socket);

    socket.serverEmit('streamStarted', { eventId: 4 });

    expect(joins(socket)).toBe(1);
    expect(screen.getByLabelText('Live stream')).toBeInTheDocument();
  });

  it('answers the offer, plays muted, and turns the sound on with the button', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    const { user } = renderPanel(socket);
    await screen.findByText('Connecting to stream...');

    const connection = await startPlaying(socket);

    expect(connection?.hadTrackHandlerOnRemoteDescription).toBe(true);
    expect(socket.payloadsOf('answer')).toEqual([
      { targetId: 'broadcaster', answer: { type: 'answer', sdp: 'answer-sdp' } },
    ]);
    expect(screen.queryByText('Connecting to stream...')).not.toBeInTheDocument();
    const video = screen.getByLabelText<HTMLVideoElement>('Live stream');
    expect(video.muted).toBe(true);
    expect(video.srcObject).toBeInstanceOf(FakeMediaStream);

    await user.click(screen.getByRole('button', { name: 'Hacer clic para habilitar audio' }));
    expect(video.muted).toBe(false);
    expect(screen.queryByRole('button', { name: 'Hacer clic para habilitar audio' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mute' })).toBeInTheDocument();
  });

  it('turns the sound on at the first key pressed anywhere', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    const { user } = renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    await startPlaying(socket);

    await user.keyboard('a');

    expect(screen.getByLabelText<HTMLVideoElement>('Live stream').muted).toBe(false);
  });

  it('relays ICE candidates both ways', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    const connection = await startPlaying(socket);

    act(() => connection?.gatherCandidate({ candidate: 'mine' }));
    socket.serverEmit('ice-candidate', { candidate: { candidate: 'theirs' }, from: 'broadcaster' });
    await advance(0);

    expect(socket.payloadsOf('ice-candidate')).toEqual([
      { targetId: 'broadcaster', candidate: { candidate: 'mine' } },
    ]);
    expect(connection?.addIceCandidate).toHaveBeenCalledWith({ candidate: 'theirs' });
  });

  it('retries 5 s after an offer it cannot apply', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(FakePeerConnection.prototype, 'setRemoteDescription').mockRejectedValue(new Error('bad sdp'));
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');

    socket.serverEmit('offer', { offer: { type: 'offer', sdp: 'broken' }, from: 'broadcaster' });

    expect(await screen.findByText('Error establishing connection with stream')).toBeInTheDocument();
    expect(peerConnections[0]?.close).toHaveBeenCalled();
    await advance(5_000);
    expect(joins(socket)).toBe(2);
  });

  it('says the connection was lost when the peer connection fails, and joins again 5 s later', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    const connection = await startPlaying(socket);

    act(() => connection?.changeState('failed'));

    expect(screen.getByText('Connection lost. Trying to reconnect...')).toBeInTheDocument();
    // The last picture stays, paused, under the message until a new offer replaces it.
    expect(screen.getByLabelText('Live stream')).toBeInTheDocument();
    await advance(5_000);
    expect(joins(socket)).toBe(2);
    await startPlaying(socket);
    expect(connection?.close).toHaveBeenCalled();
    expect(screen.queryByText('Connection lost. Trying to reconnect...')).not.toBeInTheDocument();
  });

  it('shows the camera overlay only while the broadcaster says it is on', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    const connection = await startPlaying(socket);
    expect(screen.getByLabelText('Live stream')).toBeInTheDocument();
    expect(screen.queryByLabelText('Camera overlay')).not.toBeInTheDocument();

    socket.serverEmit('streamLayout', { overlay: true });
    const overlay = screen.getByLabelText<HTMLVideoElement>('Camera overlay');
    expect((overlay.srcObject as MediaStream).getTracks()).toEqual([
      connection?.transceivers[1]?.receiver.track,
    ]);

    socket.serverEmit('streamLayout', { overlay: false });
    expect(screen.queryByLabelText('Camera overlay')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Live stream')).toBeInTheDocument();
  });

  it('shows the overlay announced on joining once the picture arrives', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    socket.serverEmit('streamLayout', { overlay: true });
    expect(screen.queryByLabelText('Camera overlay')).not.toBeInTheDocument();

    await startPlaying(socket);

    expect(screen.getByLabelText('Camera overlay')).toBeInTheDocument();
  });

  it('keeps the picture on screen while a new offer connects, then closes the old connection', async () => {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    const first = await startPlaying(socket);
    const video = screen.getByLabelText<HTMLVideoElement>('Live stream');
    const firstPicture = video.srcObject as MediaStream;
    expect(firstPicture.getVideoTracks()).toEqual([first?.transceivers[0]?.receiver.track]);

    // The broadcaster came back on a new socket (a reload) and offers again.
    socket.serverEmit('offer', { offer: { type: 'offer', sdp: 'second-sdp' }, from: 'broadcaster-2' });
    await advance(0);
    const second = peerConnections.at(-1);

    expect(peerConnections).toHaveLength(2);
    expect(second?.remoteDescription).toEqual({ type: 'offer', sdp: 'second-sdp' });
    expect(socket.payloadsOf('answer').at(-1)).toEqual({
      targetId: 'broadcaster-2',
      answer: { type: 'answer', sdp: 'answer-sdp' },
    });
    expect(first?.close).not.toHaveBeenCalled();
    expect(screen.getByLabelText('Live stream')).toBe(video);
    expect(video.srcObject).toBe(firstPicture);
    expect(screen.queryByText('Connecting to stream...')).not.toBeInTheDocument();
    socket.serverEmit('ice-candidate', { candidate: { candidate: 'new' }, from: 'broadcaster-2' });
    await advance(0);
    expect(second?.addIceCandidate).toHaveBeenCalledWith({ candidate: 'new' });

    act(() => second?.deliverTracks());

    expect((video.srcObject as MediaStream).getVideoTracks()).toEqual([
      second?.transceivers[0]?.receiver.track,
    ]);
    expect(first?.close).toHaveBeenCalled();
    expect(second?.close).not.toHaveBeenCalled();
    // The old connection failing as it closes changes nothing.
    act(() => first?.changeState('failed'));
    expect(screen.queryByText('Connection lost. Trying to reconnect...')).not.toBeInTheDocument();
    await advance(5_000);
    expect(joins(socket)).toBe(1);
  });

  it('explains a refusal, links to the event page and does not retry by itself', async () => {
    const socket = serverAnswering(
      { success: false, code: 'TICKET_REQUIRED', error: 'You need a ticket to watch this stream' },
      { success: true, viewerCount: 2 },
    );
    const { user } = renderPanel(socket);

    expect(await screen.findByText('Could not join stream')).toBeInTheDocument();
    expect(screen.getByText('You need a ticket to watch this stream')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the event page' })).toHaveAttribute('href', '/events/4');
    expect(screen.queryByLabelText('Live stream')).not.toBeInTheDocument();
    await advance(60_000);
    expect(joins(socket)).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(joins(socket)).toBe(2);
    expect(await screen.findByText('Connecting to stream...')).toBeInTheDocument();
  });

  it('gives the reason a seat was refused and a way to try again, without sending to the event page', async () => {
    const socket = serverAnswering(
      { success: false, code: 'NO_FREE_SEAT', error: NO_FREE_SEAT_REASON },
      { success: true, viewerCount: 2 },
    );
    const { user } = renderPanel(socket);

    expect(await screen.findByText('Could not join stream')).toBeInTheDocument();
    expect(screen.getByText(NO_FREE_SEAT_REASON)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Go to the event page' })).not.toBeInTheDocument();
    await advance(30_000);
    expect(joins(socket)).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(joins(socket)).toBe(2);
    expect(await screen.findByText('Connecting to stream...')).toBeInTheDocument();
  });

  it('words connection problems for the viewer', () => {
    const socket = new FakeSocket();
    const { showConnection } = renderPanel(socket, { status: 'refused', message: 'Unauthorized' });
    expect(screen.getByText('Could not authenticate. Please log in again.')).toBeInTheDocument();

    showConnection({ status: 'failed', message: 'xhr poll error' });
    expect(screen.getByText('Error connecting to server. Trying to reconnect...')).toBeInTheDocument();

    showConnection({ status: 'disconnected', reason: 'transport close' });
    expect(screen.getByText('Disconnected from server. Trying to reconnect...')).toBeInTheDocument();
    expect(joins(socket)).toBe(0);
  });

  it('joins again once the socket reconnects, and stops its timers when the page goes', async () => {
    const socket = serverAnswering(notLive);
    const { showConnection, unmount } = renderPanel(socket);
    await screen.findByText('Waiting for stream to start');

    showConnection({ status: 'disconnected', reason: 'transport close' });
    showConnection(connected);
    await screen.findByText('Waiting for stream to start');
    expect(joins(socket)).toBe(2);

    unmount();
    await advance(60_000);
    expect(joins(socket)).toBe(2);
    expect(socket.listenerCount('offer')).toBe(0);
  });
});

describe('player controls', () => {
  const restores: (() => void)[] = [];
  afterEach(() =>
    restores
      .splice(0)
      .reverse()
      .forEach((restore) => restore()),
  );

  /** Gives `target` a `key` jsdom lacks (or replaces it) until the test ends. */
  function stub(target: object, key: string, value: unknown) {
    const own = Object.getOwnPropertyDescriptor(target, key);
    Object.defineProperty(target, key, { value, configurable: true, writable: true });
    restores.push(() =>
      own ? Object.defineProperty(target, key, own) : Reflect.deleteProperty(target, key),
    );
  }

  async function renderPlaying() {
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    const view = renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    await startPlaying(socket);
    return { ...view, socket, video: screen.getByLabelText<HTMLVideoElement>('Live stream') };
  }

  it('shows no controls while nothing plays', async () => {
    stub(document, 'fullscreenEnabled', true);
    stub(document, 'pictureInPictureEnabled', true);
    const socket = serverAnswering({ success: true, viewerCount: 1 });
    renderPanel(socket);
    await screen.findByText('Connecting to stream...');
    expect(screen.queryByRole('slider', { name: 'Volume' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unmute' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Full screen' })).not.toBeInTheDocument();

    await startPlaying(socket);
    expect(screen.getByRole('slider', { name: 'Volume' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Full screen' })).toBeInTheDocument();

    socket.serverEmit('streamEnded', { reason: 'stopped' });
    expect(screen.queryByRole('slider', { name: 'Volume' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Picture in picture' })).not.toBeInTheDocument();
  });

  it('sets the volume with the slider, which turns the sound on above 0', async () => {
    const { video } = await renderPlaying();
    const slider = screen.getByRole('slider', { name: 'Volume' });
    expect(slider).toHaveValue('100');

    fireEvent.change(slider, { target: { value: '0' } });
    expect(video.volume).toBe(0);
    expect(video.muted).toBe(true);

    fireEvent.change(slider, { target: { value: '40' } });
    expect(video.volume).toBe(0.4);
    expect(video.muted).toBe(false);
    expect(screen.getByRole('button', { name: 'Mute' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Hacer clic para habilitar audio' })).not.toBeInTheDocument();
  });

  it('mutes and unmutes with the toggle, and a muted player stays muted at the next gesture', async () => {
    const { video, user } = await renderPlaying();
    expect(screen.getByRole('button', { name: 'Unmute' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(video.muted).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(video.muted).toBe(true);
    expect(screen.getByRole('button', { name: 'Unmute' })).toBeInTheDocument();
    // Muted on purpose: no call to turn the sound on, and clicks or keys elsewhere leave it off.
    expect(screen.queryByRole('button', { name: 'Hacer clic para habilitar audio' })).not.toBeInTheDocument();
    await user.click(video);
    await user.keyboard('a');
    expect(video.muted).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(video.muted).toBe(false);
  });

  it('puts the whole player full screen, and leaves full screen', async () => {
    stub(document, 'fullscreenEnabled', true);
    const requestFullscreen = vi.fn(async () => undefined);
    const exitFullscreen = vi.fn(async () => undefined);
    stub(HTMLElement.prototype, 'requestFullscreen', requestFullscreen);
    stub(document, 'exitFullscreen', exitFullscreen);
    const { user } = await renderPlaying();
    const player = screen.getByRole('region', { name: 'Stream' });

    await user.click(screen.getByRole('button', { name: 'Full screen' }));
    expect(requestFullscreen).toHaveBeenCalledTimes(1);
    expect(requestFullscreen.mock.contexts[0]).toBe(player);
    expect(exitFullscreen).not.toHaveBeenCalled();

    stub(document, 'fullscreenElement', player);
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    await user.click(screen.getByRole('button', { name: 'Exit full screen' }));
    expect(exitFullscreen).toHaveBeenCalledTimes(1);
    expect(requestFullscreen).toHaveBeenCalledTimes(1);

    stub(document, 'fullscreenElement', null);
    act(() => void document.dispatchEvent(new Event('fullscreenchange')));
    expect(screen.getByRole('button', { name: 'Full screen' })).toBeInTheDocument();
  });

  it('plays picture-in-picture, and follows the browser in and out of it', async () => {
    stub(document, 'pictureInPictureEnabled', true);
    const requestPictureInPicture = vi.fn(async () => ({}) as PictureInPictureWindow);
    const exitPictureInPicture = vi.fn(async () => undefined);
    stub(HTMLVideoElement.prototype, 'requestPictureInPicture', requestPictureInPicture);
    stub(document, 'exitPictureInPicture', exitPictureInPicture);
    const { video, user } = await renderPlaying();

    await user.click(screen.getByRole('button', { name: 'Picture in picture' }));
    expect(requestPictureInPicture).toHaveBeenCalledTimes(1);
    expect(requestPictureInPicture.mock.contexts[0]).toBe(video);

    act(() => void video.dispatchEvent(new Event('enterpictureinpicture')));
    await user.click(screen.getByRole('button', { name: 'Exit picture in picture' }));
    expect(exitPictureInPicture).toHaveBeenCalledTimes(1);

    act(() => void video.dispatchEvent(new Event('leavepictureinpicture')));
    expect(screen.getByRole('button', { name: 'Picture in picture' })).toBeInTheDocument();
    expect(requestPictureInPicture).toHaveBeenCalledTimes(1);
  });

  it('warns when the browser refuses picture-in-picture, and carries on', async () => {
    stub(document, 'pictureInPictureEnabled', true);
    const refusal = new DOMException('Not allowed', 'NotAllowedError');
    stub(HTMLVideoElement.prototype, 'requestPictureInPicture', vi.fn().mockRejectedValue(refusal));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { user } = await renderPlaying();

    await user.click(screen.getByRole('button', { name: 'Picture in picture' }));
    await advance(0);

    expect(warn).toHaveBeenCalledWith('Could not change picture in picture', refusal);
    expect(screen.getByRole('button', { name: 'Picture in picture' })).toBeInTheDocument();
    expect(screen.getByLabelText('Live stream')).toBeInTheDocument();
  });

  it('offers no full screen or picture-in-picture button where the browser cannot', async () => {
    stub(document, 'fullscreenEnabled', false);
    stub(document, 'pictureInPictureEnabled', false);
    await renderPlaying();

    expect(screen.getByRole('button', { name: 'Unmute' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Full screen' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Picture in picture' })).not.toBeInTheDocument();
  });
});
