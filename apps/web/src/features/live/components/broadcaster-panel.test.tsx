import type { MediaMode } from '@stagedoor/shared/live';
import { act, render, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { ToastContainer } from 'react-toastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIGH_QUALITY_CAMERA } from '../../../lib/media';
import type { LiveConnection } from '../../../lib/socket';
import { holdClock, waitOnRealClock } from '../../../test/waits';
import {
  FakePeerConnection,
  aDevice,
  domError,
  fakeCapture,
  removeMediaDevices,
  statsReport,
  stubMediaDevices,
  videoTrackOf,
  type FakeTrack,
} from '../testing/fake-media';
import { CAMERA_UPGRADE_DELAY_MS } from '../lib/broadcast-media';
import { FakeSocket } from '../testing/fake-socket';
import { BroadcasterPanel } from './broadcaster-panel';

let devices: ReturnType<typeof stubMediaDevices>;
let peerConnections: FakePeerConnection[];
/** Every camera capture granted, the current one last (the camera is re-acquired after a second). */
let cameras: MediaStream[];

beforeEach(() => {
  // The camera's upgrade to high quality comes a second after it opened: on the real clock, at
  // whatever point a slow run of a test has reached. Here only when the test moves the clock.
  holdClock();
  devices = stubMediaDevices();
  cameras = [];
  devices.getUserMedia.mockImplementation(async () => {
    const camera = fakeCapture('camera');
    cameras.push(camera);
    return camera;
  });
  devices.getDisplayMedia.mockImplementation(async () => fakeCapture('screen', { audio: false }));
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
});
afterEach(() => {
  vi.useRealTimers();
  removeMediaDevices();
  vi.restoreAllMocks();
});

/** A connected socket whose server knows the stream and acknowledges what the test lists. */
function serverSocket() {
  const socket = new FakeSocket();
  socket.connected = true;
  socket.onAck('connectToStream', () => ({ success: true, viewerCount: 0, isLive: false }));
  return socket;
}

function renderPanel(
  socket: FakeSocket,
  connection: LiveConnection = { status: 'connected' },
  { media = 'p2p' }: { media?: MediaMode } = {},
) {
  const ui = (state: LiveConnection) => (
    <MemoryRouter>
      <BroadcasterPanel
        socket={socket.asLiveSocket}
        connection={state}
        eventId={4}
        userId={3}
        iceServers={[]}
        media={media}
      />
      <ToastContainer />
    </MemoryRouter>
  );
  const view = render(ui(connection));
  return {
    ...view,
    user: userEvent.setup({ advanceTimers: vi.advanceTimersByTime }),
    showConnection: (state: LiveConnection) => view.rerender(ui(state)),
  };
}

const button = (name: string) => screen.getByRole('button', { name });
const preview = () => screen.getByLabelText<HTMLVideoElement>('Preview');
/** The open camera's track of that kind, as the browser holds it. */
const cameraTrack = (kind: 'audio' | 'video') =>
  cameras
    .at(-1)
    ?.getTracks()
    .find((track) => track.kind === kind) as FakeTrack | undefined;
const sfuOffer = { targetId: 'sfu', offer: { type: 'offer', sdp: 'offer-sdp' } };

/**
 * Turns a source on as the user does, and waits until the page shows it on: the browser grants it
 * a moment later.
 */
async function turnOn(user: UserEvent, source: 'Use camera' | 'Share screen') {
  await user.click(button(source));
  await waitOnRealClock(() => expect(button(source)).toHaveAttribute('aria-pressed', 'true'));
}

/** Starts the stream, and waits until the page shows the server's confirmation. */
async function goLive(user: UserEvent) {
  await user.click(button('Start Stream'));
  await waitOnRealClock(() => expect(button('Stop Stream')).toBeEnabled());
}

/** Stop Stream, then "End the show" in the confirmation it asks first. */
async function stopShow(user: UserEvent) {
  await user.click(button('Stop Stream'));
  await user.click(
    within(screen.getByRole('alertdialog', { name: 'End the show?' })).getByRole('button', {
      name: 'End the show',
    }),
  );
}

/** An acknowledgement the test sends when it chooses, whether the page asked for it yet or not. */
function heldAck(socket: FakeSocket, event: string) {
  let answer: (value: unknown) => void = () => undefined;
  const acknowledgement = new Promise((resolve) => (answer = resolve));
  socket.onAck(event, () => acknowledgement);
  return (value: unknown) => act(async () => answer(value));
}

describe('broadcaster panel', () => {
  it('enables Start once a source exists and shows Stop only after the server confirmed', async () => {
    const socket = serverSocket();
    const confirmStart = heldAck(socket, 'startStream');
    const { user } = renderPanel(socket);
    expect(button('Start Stream')).toBeDisabled();

    await turnOn(user, 'Use camera');
    expect(button('Start Stream')).toBeEnabled();

    await user.click(button('Start Stream'));
    expect(socket.payloadsOf('startStream')).toEqual([{ eventId: 4, userId: 3 }]);
    expect(button('Start Stream')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Stop Stream' })).not.toBeInTheDocument();

    await confirmStart({ success: true });
    expect(button('Stop Stream')).toBeEnabled();
    expect(screen.getByText('Live')).toBeInTheDocument();
  });

  it('on a confirmed stop releases the media and resets the viewer count', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const confirmStop = heldAck(socket, 'stopStream');
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    const camera = preview().srcObject as MediaStream;
    await goLive(user);
    socket.serverEmit('viewerCountUpdate', { viewerCount: 2 });
    expect(screen.getByRole('status', { name: 'Viewers' })).toHaveTextContent('2 viewers');

    await stopShow(user);
    expect(socket.payloadsOf('stopStream')).toEqual([{ eventId: 4 }]);
    expect(videoTrackOf(camera)?.stop).not.toHaveBeenCalled();
    await confirmStop({ success: true, summary: null });

    expect(button('Start Stream')).toBeDisabled();
    expect(screen.getByRole('status', { name: 'Viewers' })).toHaveTextContent('0 viewers');
    for (const track of camera.getTracks()) expect(track.stop).toHaveBeenCalled();
  });

  it('asks before ending a show fans watch, and keeps streaming if the creator says so', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    await goLive(user);
    socket.serverEmit('viewerCountUpdate', { viewerCount: 3 });

    await user.click(button('Stop Stream'));
    const dialog = screen.getByRole('alertdialog', { name: 'End the show?' });
    expect(dialog).toHaveTextContent('The stream stops for 3 viewers, who see that the show has ended.');
    await user.click(within(dialog).getByRole('button', { name: 'Keep streaming' }));

    await waitOnRealClock(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(socket.payloadsOf('stopStream')).toEqual([]);
    expect(button('Stop Stream')).toBeEnabled();
    expect(preview()).toBeInTheDocument();
  });

  it('shows the summary of the show after Stop, then goes back to a fresh studio', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    socket.onAck('stopStream', () => ({
      success: true,
      summary: {
        startedAt: '2026-11-27T20:00:00.000Z',
        endedAt: '2026-11-27T21:02:30.000Z',
        peakViewers: 41,
        averageViewers: 27.46,
        chatMessages: 318,
        ticketsSold: 52,
      },
    }));
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    await goLive(user);

    await stopShow(user);

    const summary = await waitOnRealClock(() => screen.getByRole('region', { name: 'The show has ended' }));
    const figure = (label: string) => within(summary).getByText(label).nextElementSibling;
    expect(figure('Duration')).toHaveTextContent('1 h 02 min');
    expect(figure('Peak viewers')).toHaveTextContent('41');
    expect(figure('Average viewers')).toHaveTextContent('27.5');
    expect(figure('Chat messages')).toHaveTextContent('318');
    expect(figure('Tickets sold')).toHaveTextContent('52');
    expect(within(summary).getByRole('link', { name: 'See the analytics' })).toHaveAttribute(
      'href',
      '/creators/dashboard/events/4/analytics',
    );
    expect(within(summary).getByRole('link', { name: 'My Events' })).toHaveAttribute(
      'href',
      '/creators/dashboard/my-events',
    );
    expect(screen.queryByRole('button', { name: 'Start Stream' })).not.toBeInTheDocument();

    await user.click(button('Back to the studio'));
    expect(screen.queryByRole('region', { name: 'The show has ended' })).not.toBeInTheDocument();
    expect(button('Start Stream')).toBeDisabled();
    expect(button('Rehearse')).toBeDisabled();
  });

  it('rehearses for the creator alone, then opens the same stream to fans without publishing again', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    socket.onAck('stopStream', () => ({ success: true, summary: null }));
    const { user } = renderPanel(socket, undefined, { media: 'janus' });
    await turnOn(user, 'Use camera');

    await user.click(button('Rehearse'));
    await waitOnRealClock(() => expect(button('End rehearsal')).toBeEnabled());
    expect(socket.payloadsOf('startStream')).toEqual([{ eventId: 4, userId: 3, rehearsal: true }]);
    expect(screen.getByText('Rehearsal', { selector: 'span' })).toBeInTheDocument();
    expect(screen.getByText(/^Rehearsal: only you can see and hear this/)).toHaveAttribute('role', 'status');
    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toEqual([sfuOffer]));

    await user.click(button('Start Stream'));
    await waitOnRealClock(() => expect(button('Stop Stream')).toBeEnabled());
    expect(socket.payloadsOf('startStream').at(-1)).toEqual({ eventId: 4, userId: 3 });
    // Already publishing: no second connection to the media server.
    expect(peerConnections).toHaveLength(1);
    expect(socket.payloadsOf('offer')).toEqual([sfuOffer]);
    expect(screen.queryByText(/^Rehearsal: only you/)).not.toBeInTheDocument();
    expect(screen.getByText('Live', { selector: 'span' })).toBeInTheDocument();
  });

  it('ends a rehearsal without asking and without a summary, back to the preview', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    socket.onAck('stopStream', () => ({ success: true, summary: null }));
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    await user.click(button('Rehearse'));
    await waitOnRealClock(() => expect(button('End rehearsal')).toBeEnabled());

    await user.click(button('End rehearsal'));

    await waitOnRealClock(() => expect(button('Rehearse')).toBeInTheDocument());
    expect(socket.payloadsOf('stopStream')).toEqual([{ eventId: 4 }]);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'The show has ended' })).not.toBeInTheDocument();
  });

  it('offers to resume a rehearsal a reload interrupted, as a rehearsal', async () => {
    const socket = serverSocket();
    socket.onAck('connectToStream', () => ({
      success: true,
      viewerCount: 0,
      isLive: false,
      rehearsing: true,
    }));
    socket.onAck('startStream', () => ({ success: true }));
    const { user } = renderPanel(socket);

    expect(await screen.findByRole('heading', { name: 'You are rehearsing' })).toBeInTheDocument();
    await user.click(button('Resume rehearsal'));

    await waitOnRealClock(() => expect(button('End rehearsal')).toBeEnabled());
    expect(socket.payloadsOf('startStream')).toEqual([{ eventId: 4, userId: 3, rehearsal: true }]);
  });

  it.each([
    ['NotAllowedError', 'Permission denied to access camera/screen'],
    ['NotFoundError', 'Camera or screen not found'],
  ])('toasts a camera %s in the words of the spec', async (name, text) => {
    devices.getUserMedia.mockRejectedValue(domError(name));
    const { user } = renderPanel(serverSocket());

    await user.click(button('Use camera'));
    // The camera is asked for again after short pauses (spec §9) before the page gives up.
    await act(() => vi.runAllTimersAsync());

    expect(await waitOnRealClock(() => screen.getByText(text))).toBeInTheDocument();
    expect(button('Start Stream')).toBeDisabled();
  });

  it('toasts a refused screen share too', async () => {
    devices.getDisplayMedia.mockRejectedValue(domError('NotAllowedError'));
    const { user } = renderPanel(serverSocket());

    await user.click(button('Share screen'));

    expect(
      await waitOnRealClock(() => screen.getByText('Permission denied to access camera/screen')),
    ).toBeInTheDocument();
  });

  it('shows the screen with the camera as overlay, and the camera alone again when the share ends', async () => {
    const { user } = renderPanel(serverSocket());
    await turnOn(user, 'Use camera');
    const camera = preview().srcObject as MediaStream;
    await turnOn(user, 'Share screen');
    const screenShare = preview().srcObject as MediaStream;

    expect(screenShare).not.toBe(camera);
    expect(screen.getByLabelText<HTMLVideoElement>('Camera overlay').srcObject).toBe(camera);

    act(() => videoTrackOf(screenShare)?.end());

    expect(preview().srcObject).toBe(camera);
    expect(screen.queryByLabelText('Camera overlay')).not.toBeInTheDocument();
    expect(button('Share screen')).toHaveAttribute('aria-pressed', 'false');
  });

  it('connects each joining viewer with an offer and follows the signalling', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    await goLive(user);

    socket.serverEmit('viewerJoined', { viewerId: 'viewer-1' });
    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toHaveLength(1));
    expect(socket.payloadsOf('offer')[0]).toEqual({
      targetId: 'viewer-1',
      offer: { type: 'offer', sdp: 'offer-sdp' },
    });
    const [connection] = peerConnections;
    const camera = preview().srcObject as MediaStream;
    expect(connection?.transceivers[0]?.sender.track).toBe(camera.getVideoTracks()[0]);

    socket.serverEmit('answer', { answer: { type: 'answer', sdp: 'answer-sdp' }, from: 'viewer-1' });
    await waitOnRealClock(() =>
      expect(connection?.remoteDescription).toEqual({ type: 'answer', sdp: 'answer-sdp' }),
    );
    act(() => connection?.gatherCandidate({ candidate: 'mine' }));
    expect(socket.payloadsOf('ice-candidate')).toEqual([
      { targetId: 'viewer-1', candidate: { candidate: 'mine' } },
    ]);

    socket.serverEmit('viewerLeft', { viewerId: 'viewer-1' });
    expect(connection?.close).toHaveBeenCalled();
  });

  it('swaps the high-quality camera into live connections about a second after first use', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    const first = preview().srcObject as MediaStream;
    await goLive(user);
    socket.serverEmit('viewerJoined', { viewerId: 'viewer-1' });
    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(CAMERA_UPGRADE_DELAY_MS - 1));
    expect(devices.getUserMedia).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(1));

    await waitOnRealClock(() => expect(preview().srcObject).not.toBe(first));

    const better = preview().srcObject as MediaStream;
    expect(devices.getUserMedia).toHaveBeenLastCalledWith(HIGH_QUALITY_CAMERA);
    expect(peerConnections[0]?.transceivers.map(({ sender }) => sender.track)).toEqual([
      better.getVideoTracks()[0],
      null,
      better.getAudioTracks()[0],
    ]);
    expect(videoTrackOf(first)?.stop).toHaveBeenCalled();
  });

  it("says 'No se pudo agregar la pantalla' when a viewer's connection refuses the screen", async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    await goLive(user);
    socket.serverEmit('viewerJoined', { viewerId: 'viewer-1' });
    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toHaveLength(1));
    peerConnections[0]?.transceivers[0]?.sender.replaceTrack.mockRejectedValueOnce(new Error('refused'));

    await user.click(button('Share screen'));

    expect(
      await waitOnRealClock(() => screen.getByText('No se pudo agregar la pantalla')),
    ).toBeInTheDocument();
  });

  it('reports failed acknowledgements in the words of the spec', async () => {
    const socket = new FakeSocket();
    socket.connected = true;
    socket.onAck('connectToStream', () => ({
      success: false,
      code: 'EVENT_NOT_FOUND',
      error: 'Event not found',
    }));
    socket.onAck('startStream', () => ({ success: false, code: 'FORBIDDEN', error: 'Not your event' }));
    const { user } = renderPanel(socket);
    expect(await waitOnRealClock(() => screen.getByText('Error connecting to stream'))).toBeInTheDocument();

    await turnOn(user, 'Use camera');
    await user.click(button('Start Stream'));
    expect(await waitOnRealClock(() => screen.getByText('Error starting stream'))).toBeInTheDocument();
    expect(button('Start Stream')).toBeEnabled();
  });

  it('reports a refused stop and stays live', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    socket.onAck('stopStream', () => ({ success: false, code: 'INTERNAL', error: 'nope' }));
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    await goLive(user);

    await stopShow(user);

    expect(await waitOnRealClock(() => screen.getByText('Error stopping stream'))).toBeInTheDocument();
    expect(button('Stop Stream')).toBeEnabled();
  });

  it("says 'El socket no está disponible' when starting without a connection", async () => {
    const socket = new FakeSocket();
    const { user } = renderPanel(socket, { status: 'connecting' });
    await turnOn(user, 'Use camera');

    await user.click(button('Start Stream'));

    expect(await waitOnRealClock(() => screen.getByText('El socket no está disponible'))).toBeInTheDocument();
    expect(socket.payloadsOf('startStream')).toEqual([]);
  });

  it('toasts connection problems in the words of the spec', async () => {
    const { showConnection } = renderPanel(new FakeSocket(), { status: 'no-token' });
    expect(
      await waitOnRealClock(() => screen.getByText('No authentication token available')),
    ).toBeInTheDocument();

    showConnection({ status: 'failed', message: 'timeout' });
    expect(await waitOnRealClock(() => screen.getByText('Connection error: timeout'))).toBeInTheDocument();

    showConnection({ status: 'disconnected', reason: 'transport close' });
    expect(
      await waitOnRealClock(() => screen.getByText('Disconnected: transport close')),
    ).toBeInTheDocument();
  });

  it('ends the stream and releases the camera when the page goes while live', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user, unmount } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    const camera = preview().srcObject as MediaStream;
    await goLive(user);

    unmount();

    expect(socket.payloadsOf('stopStream')).toEqual([{ eventId: 4 }]);
    for (const track of camera.getTracks()) expect(track.stop).toHaveBeenCalled();
  });

  it('tells the server whether the camera overlay is on, once live and on every change', async () => {
    const socket = serverSocket();
    const confirmStart = heldAck(socket, 'startStream');
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    await user.click(button('Start Stream'));
    expect(socket.payloadsOf('streamLayout')).toEqual([]);

    await confirmStart({ success: true });
    await waitOnRealClock(() =>
      expect(socket.payloadsOf('streamLayout')).toEqual([{ eventId: 4, overlay: false }]),
    );

    await turnOn(user, 'Share screen');
    await waitOnRealClock(() =>
      expect(socket.payloadsOf('streamLayout').at(-1)).toEqual({ eventId: 4, overlay: true }),
    );

    await user.click(button('Share screen'));
    await waitOnRealClock(() =>
      expect(socket.payloadsOf('streamLayout').at(-1)).toEqual({ eventId: 4, overlay: false }),
    );
  });

  it('says there is no overlay when only a screen goes live', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user } = renderPanel(socket);
    await turnOn(user, 'Share screen');

    await goLive(user);

    await waitOnRealClock(() =>
      expect(socket.payloadsOf('streamLayout')).toEqual([{ eventId: 4, overlay: false }]),
    );
  });

  it('publishes one connection to the media server in Janus mode, and again when the server asks', async () => {
    const socket = serverSocket();
    const confirmStart = heldAck(socket, 'startStream');
    const { user } = renderPanel(socket, undefined, { media: 'janus' });
    await turnOn(user, 'Use camera');
    await user.click(button('Start Stream'));
    expect(peerConnections).toHaveLength(0);

    await confirmStart({ success: true });

    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toEqual([sfuOffer]));
    expect(peerConnections).toHaveLength(1);
    const [connection] = peerConnections;
    expect(connection?.transceivers.map(({ sender }) => sender.track)).toEqual([
      cameraTrack('video'),
      null,
      cameraTrack('audio'),
    ]);

    socket.serverEmit('answer', { answer: { type: 'answer', sdp: 'sfu-answer' }, from: 'sfu' });
    await waitOnRealClock(() =>
      expect(connection?.remoteDescription).toEqual({ type: 'answer', sdp: 'sfu-answer' }),
    );
    socket.serverEmit('ice-candidate', { candidate: { candidate: 'sfu-candidate' }, from: 'sfu' });
    await waitOnRealClock(() =>
      expect(connection?.addIceCandidate).toHaveBeenCalledWith({ candidate: 'sfu-candidate' }),
    );
    act(() => connection?.gatherCandidate({ candidate: 'mine' }));
    expect(socket.payloadsOf('ice-candidate')).toEqual([
      { targetId: 'sfu', candidate: { candidate: 'mine' } },
    ]);

    // The server asks for a new publication (Janus restarted): the media server "joins" again.
    socket.serverEmit('viewerJoined', { viewerId: 'sfu' });
    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toEqual([sfuOffer, sfuOffer]));
    expect(peerConnections).toHaveLength(2);
    expect(connection?.close).toHaveBeenCalled();
  });

  it('publishes to the media server again when its connection fails while live', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user } = renderPanel(socket, undefined, { media: 'janus' });
    await turnOn(user, 'Use camera');
    await user.click(button('Start Stream'));
    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toHaveLength(1));

    act(() => peerConnections[0]?.changeState('failed'));

    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toEqual([sfuOffer, sfuOffer]));
    expect(peerConnections).toHaveLength(2);
    expect(peerConnections[0]?.close).toHaveBeenCalled();
  });

  it('offers to resume a show that is live without this page, with the camera by default', async () => {
    const socket = new FakeSocket();
    socket.connected = true;
    socket.onAck('connectToStream', () => ({ success: true, viewerCount: 2, isLive: true }));
    const confirmStart = heldAck(socket, 'startStream');
    const { user } = renderPanel(socket);

    expect(
      await waitOnRealClock(() => screen.getByRole('heading', { name: 'You are live' })),
    ).toBeInTheDocument();
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Viewers' })).toHaveTextContent('2 viewers');
    expect(socket.payloadsOf('startStream')).toEqual([]);

    await user.click(button('Resume stream'));

    // The camera opens first, then the stream starts again.
    await waitOnRealClock(() =>
      expect(socket.payloadsOf('startStream')).toEqual([{ eventId: 4, userId: 3 }]),
    );
    expect(devices.getUserMedia).toHaveBeenCalledTimes(1);
    expect(devices.getDisplayMedia).not.toHaveBeenCalled();
    expect(button('Use camera')).toHaveAttribute('aria-pressed', 'true');
    await confirmStart({ success: true });
    await waitOnRealClock(() => expect(button('Stop Stream')).toBeEnabled());
    expect(screen.queryByRole('heading', { name: 'You are live' })).not.toBeInTheDocument();
    await waitOnRealClock(() =>
      expect(socket.payloadsOf('streamLayout')).toEqual([{ eventId: 4, overlay: false }]),
    );
  });

  it('resumes with the sources the show used before the reload', async () => {
    const socket = new FakeSocket();
    socket.connected = true;
    socket.onAck('connectToStream', () => ({ success: true, viewerCount: 0, isLive: true }));
    socket.onAck('startStream', () => ({ success: true }));
    sessionStorage.setItem('stagedoor:studio:4', JSON.stringify(['camera', 'screen']));
    const { user } = renderPanel(socket);

    await user.click(await waitOnRealClock(() => screen.getByRole('button', { name: 'Resume stream' })));

    await waitOnRealClock(() => expect(button('Stop Stream')).toBeEnabled());
    expect(button('Use camera')).toHaveAttribute('aria-pressed', 'true');
    expect(button('Share screen')).toHaveAttribute('aria-pressed', 'true');
    await waitOnRealClock(() =>
      expect(socket.payloadsOf('streamLayout')).toEqual([{ eventId: 4, overlay: true }]),
    );
  });

  it('remembers the sources of a live show for a resume after a reload', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user } = renderPanel(socket);
    await turnOn(user, 'Share screen');
    expect(sessionStorage.getItem('stagedoor:studio:4')).toBeNull();

    await goLive(user);

    await waitOnRealClock(() =>
      expect(JSON.parse(sessionStorage.getItem('stagedoor:studio:4') ?? 'null')).toEqual(['screen']),
    );
  });

  it('stops offering to resume once the server says the show ended', async () => {
    const socket = new FakeSocket();
    socket.connected = true;
    socket.onAck('connectToStream', () => ({ success: true, viewerCount: 0, isLive: true }));
    renderPanel(socket);
    await waitOnRealClock(() => screen.getByRole('heading', { name: 'You are live' }));

    socket.serverEmit('streamEnded', { reason: 'lost' });

    expect(screen.queryByRole('heading', { name: 'You are live' })).not.toBeInTheDocument();
    expect(screen.queryByText('Live')).not.toBeInTheDocument();
  });

  it('mutes and unmutes the microphone', async () => {
    const { user } = renderPanel(serverSocket());
    await turnOn(user, 'Use camera');
    expect(button('Mute microphone')).toHaveAttribute('aria-pressed', 'false');

    await user.click(button('Mute microphone'));

    expect(button('Mute microphone')).toHaveAttribute('aria-pressed', 'true');
    expect(cameraTrack('audio')?.enabled).toBe(false);
    expect(cameraTrack('video')?.enabled).toBe(true);

    await user.click(button('Mute microphone'));
    expect(button('Mute microphone')).toHaveAttribute('aria-pressed', 'false');
    expect(cameraTrack('audio')?.enabled).toBe(true);
  });

  it('turns the camera off: black frames, and no overlay over a shared screen for anyone', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user } = renderPanel(socket);
    await turnOn(user, 'Use camera');
    await turnOn(user, 'Share screen');
    await goLive(user);
    socket.serverEmit('viewerJoined', { viewerId: 'viewer-1' });
    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toHaveLength(1));
    expect(screen.getByLabelText('Camera overlay')).toBeInTheDocument();
    const [connection] = peerConnections;

    await user.click(button('Camera off'));

    expect(button('Camera off')).toHaveAttribute('aria-pressed', 'true');
    expect(cameraTrack('video')?.enabled).toBe(false);
    expect(cameraTrack('audio')?.enabled).toBe(true);
    expect(screen.queryByLabelText('Camera overlay')).not.toBeInTheDocument();
    expect(preview().srcObject).not.toBe(cameras.at(-1));
    expect(socket.payloadsOf('streamLayout').at(-1)).toEqual({ eventId: 4, overlay: false });
    await waitOnRealClock(() => expect(connection?.transceivers[1]?.sender.track).toBeNull());

    await user.click(button('Camera off'));
    expect(cameraTrack('video')?.enabled).toBe(true);
    expect(screen.getByLabelText('Camera overlay')).toBeInTheDocument();
    expect(socket.payloadsOf('streamLayout').at(-1)).toEqual({ eventId: 4, overlay: true });
  });

  it('lists the cameras and microphones, and opens the chosen camera', async () => {
    devices.enumerateDevices.mockResolvedValue([
      aDevice('videoinput', 'front', 'Front camera'),
      aDevice('videoinput', 'usb', 'USB camera'),
      aDevice('audioinput', 'headset', 'Headset'),
      aDevice('audiooutput', 'speakers', 'Speakers'),
    ]);
    const { user } = renderPanel(serverSocket());
    const cameraSelect = screen.getByRole('combobox', { name: 'Camera' });
    await waitOnRealClock(() =>
      expect(
        within(cameraSelect)
          .getAllByRole('option')
          .map((option) => option.textContent),
      ).toEqual(['Default', 'Front camera', 'USB camera']),
    );
    expect(
      within(screen.getByRole('combobox', { name: 'Microphone' }))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Default', 'Headset']);
    await turnOn(user, 'Use camera');
    const first = cameras.at(-1);

    await user.selectOptions(cameraSelect, 'USB camera');

    await waitOnRealClock(() => expect(preview().srcObject).not.toBe(first));
    expect(devices.getUserMedia).toHaveBeenLastCalledWith(
      expect.objectContaining({ video: expect.objectContaining({ deviceId: { exact: 'usb' } }) }),
    );
    expect(cameraSelect).toHaveValue('usb');
  });

  it('shows the health of the connection while live', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user } = renderPanel(socket, undefined, { media: 'janus' });
    await turnOn(user, 'Use camera');
    expect(screen.queryByRole('status', { name: 'Stream health' })).not.toBeInTheDocument();
    await user.click(button('Start Stream'));
    await waitOnRealClock(() => expect(socket.payloadsOf('offer')).toHaveLength(1));
    const health = screen.getByRole('status', { name: 'Stream health' });
    socket.serverEmit('viewerCountUpdate', { viewerCount: 2 });
    await act(() => vi.advanceTimersByTimeAsync(2_000));

    peerConnections[0]?.getStats.mockResolvedValue(
      statsReport([
        { type: 'outbound-rtp', bytesSent: 500_000, packetsSent: 1_000 },
        { type: 'remote-inbound-rtp', packetsLost: 10 },
      ]),
    );
    await act(() => vi.advanceTimersByTimeAsync(2_000));

    expect(health).toHaveTextContent(/^Sending 2\.0 Mbps · 1\.0% loss · 2 viewers$/);
  });
});
