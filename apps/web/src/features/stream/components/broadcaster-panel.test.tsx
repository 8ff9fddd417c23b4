import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastContainer } from 'react-toastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HIGH_QUALITY_CAMERA } from '../../../lib/media';
import type { LiveConnection } from '../../../lib/socket';
import {
  FakePeerConnection,
  domError,
  fakeCapture,
  removeMediaDevices,
  stubMediaDevices,
  videoTrackOf,
} from '../testing/fake-media';
import { FakeSocket } from '../testing/fake-socket';
import { BroadcasterPanel } from './broadcaster-panel';

let devices: ReturnType<typeof stubMediaDevices>;
let peerConnections: FakePeerConnection[];

beforeEach(() => {
  devices = stubMediaDevices();
  devices.getUserMedia.mockImplementation(async () => fakeCapture('camera'));
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
  removeMediaDevices();
  vi.restoreAllMocks();
});

/** A connected socket whose server knows the stream and acknowledges what the test lists. */
function serverSocket() {
  const socket = new FakeSocket();
  socket.connected = true;
  socket.onAck('connectToStream', () => ({ success: true, viewerCount: 0 }));
  return socket;
}

function renderPanel(socket: FakeSocket, connection: LiveConnection = { status: 'connected' }) {
  const ui = (state: LiveConnection) => (
    <>
      <BroadcasterPanel
        socket={socket.asLiveSocket}
        connection={state}
        eventId={4}
        userId={3}
        iceServers={[]}
      />
      <ToastContainer />
    </>
  );
  const view = render(ui(connection));
  return {
    ...view,
    user: userEvent.setup(),
    showConnection: (state: LiveConnection) => view.rerender(ui(state)),
  };
}

const button = (name: string) => screen.getByRole('button', { name });
const preview = () => screen.getByLabelText<HTMLVideoElement>('Preview');

/** An acknowledgement the test sends when it chooses. */
function heldAck(socket: FakeSocket, event: string) {
  let answer: (value: unknown) => void = () => undefined;
  socket.onAck(event, () => new Promise((resolve) => (answer = resolve)));
  return (value: unknown) => act(() => answer(value));
}

describe('broadcaster panel', () => {
  it('enables Start once a source exists and shows Stop only after the server confirmed', async () => {
    const socket = serverSocket();
    const confirmStart = heldAck(socket, 'startStream');
    const { user } = renderPanel(socket);
    expect(button('Start Stream')).toBeDisabled();

    await user.click(button('Use camera'));
    expect(button('Use camera')).toHaveAttribute('aria-pressed', 'true');
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
    await user.click(button('Use camera'));
    const camera = preview().srcObject as MediaStream;
    await user.click(button('Start Stream'));
    socket.serverEmit('viewerCountUpdate', { viewerCount: 2 });
    expect(screen.getByRole('status', { name: 'Viewers' })).toHaveTextContent('2 viewers');

    await user.click(button('Stop Stream'));
    expect(socket.payloadsOf('stopStream')).toEqual([{ eventId: 4 }]);
    expect(videoTrackOf(camera)?.stop).not.toHaveBeenCalled();
    await confirmStop({ success: true });

    expect(button('Start Stream')).toBeDisabled();
    expect(screen.getByRole('status', { name: 'Viewers' })).toHaveTextContent('0 viewers');
    for (const track of camera.getTracks()) expect(track.stop).toHaveBeenCalled();
  });

  it.each([
    ['NotAllowedError', 'Permission denied to access camera/screen'],
    ['NotFoundError', 'Camera or screen not found'],
  ])('toasts a camera %s in the words of the spec', async (name, text) => {
    devices.getUserMedia.mockRejectedValue(domError(name));
    const { user } = renderPanel(serverSocket());

    await user.click(button('Use camera'));

    expect(await screen.findByText(text)).toBeInTheDocument();
    expect(button('Start Stream')).toBeDisabled();
  });

  it('toasts a refused screen share too', async () => {
    devices.getDisplayMedia.mockRejectedValue(domError('NotAllowedError'));
    const { user } = renderPanel(serverSocket());

    await user.click(button('Share screen'));

    expect(await screen.findByText('Permission denied to access camera/screen')).toBeInTheDocument();
  });

  it('shows the screen with the camera as overlay, and the camera alone again when the share ends', async () => {
    const { user } = renderPanel(serverSocket());
    await user.click(button('Use camera'));
    const camera = preview().srcObject as MediaStream;
    await user.click(button('Share screen'));
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
    await user.click(button('Use camera'));
    await user.click(button('Start Stream'));

    socket.serverEmit('viewerJoined', { viewerId: 'viewer-1' });
    await vi.waitFor(() => expect(socket.payloadsOf('offer')).toHaveLength(1));
    expect(socket.payloadsOf('offer')[0]).toEqual({
      targetId: 'viewer-1',
      offer: { type: 'offer', sdp: 'offer-sdp' },
    });
    const [connection] = peerConnections;
    const camera = preview().srcObject as MediaStream;
    expect(connection?.transceivers[0]?.sender.track).toBe(camera.getVideoTracks()[0]);

    socket.serverEmit('answer', { answer: { type: 'answer', sdp: 'answer-sdp' }, from: 'viewer-1' });
    await vi.waitFor(() =>
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
    await user.click(button('Use camera'));
    const first = preview().srcObject as MediaStream;
    await user.click(button('Start Stream'));
    socket.serverEmit('viewerJoined', { viewerId: 'viewer-1' });
    await vi.waitFor(() => expect(socket.payloadsOf('offer')).toHaveLength(1));

    await vi.waitFor(() => expect(preview().srcObject).not.toBe(first), { timeout: 2000 });

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
    await user.click(button('Use camera'));
    await user.click(button('Start Stream'));
    socket.serverEmit('viewerJoined', { viewerId: 'viewer-1' });
    await vi.waitFor(() => expect(socket.payloadsOf('offer')).toHaveLength(1));
    peerConnections[0]?.transceivers[0]?.sender.replaceTrack.mockRejectedValueOnce(new Error('refused'));

    await user.click(button('Share screen'));

    expect(await screen.findByText('No se pudo agregar la pantalla')).toBeInTheDocument();
  });

  it('reports failed acknowledgements in the words of the spec', async () => {
    const socket = new FakeSocket();
    socket.connected = true;
    socket.onAck('connectToStream', () => ({ success: false, error: 'Event not found' }));
    socket.onAck('startStream', () => ({ success: false, error: 'Not your event' }));
    const { user } = renderPanel(socket);
    expect(await screen.findByText('Error connecting to stream')).toBeInTheDocument();

    await user.click(button('Use camera'));
    await user.click(button('Start Stream'));
    expect(await screen.findByText('Error starting stream')).toBeInTheDocument();
    expect(button('Start Stream')).toBeEnabled();
  });

  it('reports a refused stop and stays live', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    socket.onAck('stopStream', () => ({ success: false, error: 'nope' }));
    const { user } = renderPanel(socket);
    await user.click(button('Use camera'));
    await user.click(button('Start Stream'));

    await user.click(button('Stop Stream'));

    expect(await screen.findByText('Error stopping stream')).toBeInTheDocument();
    expect(button('Stop Stream')).toBeEnabled();
  });

  it("says 'El socket no está disponible' when starting without a connection", async () => {
    const socket = new FakeSocket();
    const { user } = renderPanel(socket, { status: 'connecting' });
    await user.click(button('Use camera'));

    await user.click(button('Start Stream'));

    expect(await screen.findByText('El socket no está disponible')).toBeInTheDocument();
    expect(socket.payloadsOf('startStream')).toEqual([]);
  });

  it('toasts connection problems in the words of the spec', async () => {
    const { showConnection } = renderPanel(new FakeSocket(), { status: 'no-token' });
    expect(await screen.findByText('No authentication token available')).toBeInTheDocument();

    showConnection({ status: 'failed', message: 'timeout' });
    expect(await screen.findByText('Connection error: timeout')).toBeInTheDocument();

    showConnection({ status: 'disconnected', reason: 'transport close' });
    expect(await screen.findByText('Disconnected: transport close')).toBeInTheDocument();
  });

  it('ends the stream and releases the camera when the page goes while live', async () => {
    const socket = serverSocket();
    socket.onAck('startStream', () => ({ success: true }));
    const { user, unmount } = renderPanel(socket);
    await user.click(button('Use camera'));
    const camera = preview().srcObject as MediaStream;
    await user.click(button('Start Stream'));
    await screen.findByRole('button', { name: 'Stop Stream' });

    unmount();

    expect(socket.payloadsOf('stopStream')).toEqual([{ eventId: 4 }]);
    for (const track of camera.getTracks()) expect(track.stop).toHaveBeenCalled();
  });
});
