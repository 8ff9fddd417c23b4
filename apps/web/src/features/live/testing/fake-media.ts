import { vi } from 'vitest';

/**
 * Stand-ins for the browser's capture and WebRTC objects, which jsdom does not have. They keep only
 * what the stream code reads and what the tests assert on.
 */

export class FakeTrack extends EventTarget {
  readyState: MediaStreamTrackState = 'live';
  /** False while muted (audio) or switched off (video): the track sends silence or black frames. */
  enabled = true;
  readonly stop = vi.fn(() => {
    this.readyState = 'ended';
  });

  constructor(
    readonly kind: 'audio' | 'video',
    readonly label: string = kind,
  ) {
    super();
  }

  /** The browser ended the track itself (the user stopped sharing, the camera was unplugged). */
  end() {
    this.readyState = 'ended';
    this.dispatchEvent(new Event('ended'));
  }
}

export class FakeMediaStream {
  private readonly tracks: FakeTrack[];

  constructor(tracks: readonly FakeTrack[] = []) {
    this.tracks = [...tracks];
  }

  getTracks() {
    return [...this.tracks];
  }

  getVideoTracks() {
    return this.tracks.filter((track) => track.kind === 'video');
  }

  getAudioTracks() {
    return this.tracks.filter((track) => track.kind === 'audio');
  }

  get asMediaStream(): MediaStream {
    return this as unknown as MediaStream;
  }
}

/** A camera capture (video and microphone) or, with `audio` false, a screen capture. */
export function fakeCapture(label: string, { audio = true } = {}): MediaStream {
  const tracks = [new FakeTrack('video', `${label} video`)];
  if (audio) tracks.push(new FakeTrack('audio', `${label} audio`));
  return new FakeMediaStream(tracks).asMediaStream;
}

export function videoTrackOf(stream: MediaStream | null): FakeTrack | undefined {
  return stream?.getVideoTracks()[0] as FakeTrack | undefined;
}

/**
 * Installs `navigator.mediaDevices` with mock getUserMedia, getDisplayMedia and enumerateDevices (no
 * devices, unless a test lists some); returns them.
 */
export function stubMediaDevices() {
  const devices = {
    getUserMedia: vi.fn<(constraints?: MediaStreamConstraints) => Promise<MediaStream>>(),
    getDisplayMedia: vi.fn<(options?: DisplayMediaStreamOptions) => Promise<MediaStream>>(),
    enumerateDevices: vi.fn(async (): Promise<MediaDeviceInfo[]> => []),
  };
  Object.defineProperty(navigator, 'mediaDevices', { value: devices, configurable: true });
  return devices;
}

export function removeMediaDevices() {
  Reflect.deleteProperty(navigator, 'mediaDevices');
}

/** A camera or microphone as `enumerateDevices` lists it. */
export function aDevice(kind: MediaDeviceKind, deviceId: string, label: string): MediaDeviceInfo {
  return { kind, deviceId, label, groupId: 'group', toJSON: () => ({}) };
}

/** A `getStats()` answer holding these statistics (each with at least `type`). */
export function statsReport(stats: readonly ({ type: string } & Record<string, unknown>)[]): RTCStatsReport {
  return new Map(stats.map((entry, index) => [`${entry.type}-${index}`, entry])) as unknown as RTCStatsReport;
}

export function domError(name: string, message = `${name} happened`): DOMException {
  return new DOMException(message, name);
}

class FakeSender {
  constructor(public track: MediaStreamTrack | null) {}
  readonly replaceTrack = vi.fn(async (track: MediaStreamTrack | null) => {
    this.track = track;
  });
}

type FakeTransceiver = {
  sender: FakeSender;
  receiver: { track: FakeTrack };
  direction: RTCRtpTransceiverDirection;
};

export class FakePeerConnection {
  readonly transceivers: FakeTransceiver[] = [];
  localDescription: RTCSessionDescriptionInit | null = null;
  remoteDescription: RTCSessionDescriptionInit | null = null;
  connectionState: RTCPeerConnectionState = 'new';
  ontrack: ((event: { track: FakeTrack; transceiver: FakeTransceiver }) => void) | null = null;
  onicecandidate: ((event: { candidate: { toJSON: () => RTCIceCandidateInit } | null }) => void) | null =
    null;
  onconnectionstatechange: (() => void) | null = null;
  /** Whether `ontrack` was attached when the remote description was applied. */
  hadTrackHandlerOnRemoteDescription = false;
  readonly addIceCandidate = vi.fn(async (_candidate: RTCIceCandidateInit) => undefined);
  readonly close = vi.fn(() => {
    this.connectionState = 'closed';
  });
  /** What the connection has sent so far: nothing, until a test says otherwise. */
  readonly getStats = vi.fn(async (): Promise<RTCStatsReport> => statsReport([]));

  constructor(readonly configuration: RTCConfiguration) {}

  addTransceiver(trackOrKind: MediaStreamTrack | string, init: RTCRtpTransceiverInit) {
    const track = typeof trackOrKind === 'string' ? null : trackOrKind;
    const kind = (typeof trackOrKind === 'string' ? trackOrKind : trackOrKind.kind) as 'audio' | 'video';
    const transceiver: FakeTransceiver = {
      sender: new FakeSender(track),
      receiver: { track: new FakeTrack(kind) },
      direction: init.direction ?? 'sendrecv',
    };
    this.transceivers.push(transceiver);
    return transceiver;
  }

  getTransceivers() {
    return [...this.transceivers];
  }

  async createOffer(): Promise<RTCSessionDescriptionInit> {
    return { type: 'offer', sdp: 'offer-sdp' };
  }

  async createAnswer(): Promise<RTCSessionDescriptionInit> {
    return { type: 'answer', sdp: 'answer-sdp' };
  }

  async setLocalDescription(description: RTCSessionDescriptionInit) {
    this.localDescription = description;
  }

  /** Like a browser applying the broadcaster's offer: main video, overlay video and sound sections. */
  async setRemoteDescription(description: RTCSessionDescriptionInit) {
    this.hadTrackHandlerOnRemoteDescription = this.ontrack !== null;
    this.remoteDescription = description;
    if (description.type === 'offer' && this.transceivers.length === 0) {
      for (const kind of ['video', 'video', 'audio']) this.addTransceiver(kind, { direction: 'recvonly' });
    }
  }

  /** Fires `track` for each received section, as a browser does once the offer is applied. */
  deliverTracks() {
    for (const transceiver of this.transceivers) {
      this.ontrack?.({ track: transceiver.receiver.track, transceiver });
    }
  }

  changeState(state: RTCPeerConnectionState) {
    this.connectionState = state;
    this.onconnectionstatechange?.();
  }

  gatherCandidate(candidate: RTCIceCandidateInit) {
    this.onicecandidate?.({ candidate: { toJSON: () => candidate } });
  }

  get asPeerConnection(): RTCPeerConnection {
    return this as unknown as RTCPeerConnection;
  }
}

/** A factory for the peer modules that keeps every connection it made, for assertions. */
export function peerConnectionFactory() {
  const created: FakePeerConnection[] = [];
  const create = (configuration: RTCConfiguration) => {
    const connection = new FakePeerConnection(configuration);
    created.push(connection);
    return connection.asPeerConnection;
  };
  return { created, create };
}
