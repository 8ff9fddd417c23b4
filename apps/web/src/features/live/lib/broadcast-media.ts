import {
  BASIC_CAMERA,
  DEFAULT_DEVICES,
  HIGH_QUALITY_CAMERA,
  acquireCamera,
  acquireScreen,
  onDevices,
  stopTracks,
  type DeviceChoice,
} from '../../../lib/media';
import type { BroadcastLayout } from './broadcast-protocol';

export type SourceKind = 'camera' | 'screen';

/** What the studio captures and how: its sources, the microphone and camera switches, the devices. */
export type BroadcastState = {
  readonly camera: MediaStream | null;
  readonly screen: MediaStream | null;
  /** The microphone sends silence. */
  readonly isMicrophoneMuted: boolean;
  /** The camera sends black frames, and no overlay shows. */
  readonly isCameraOff: boolean;
  readonly devices: DeviceChoice;
};

type Sources = Pick<BroadcastState, 'camera' | 'screen'> & { isCameraOff?: boolean };

const INITIAL: BroadcastState = {
  camera: null,
  screen: null,
  isMicrophoneMuted: false,
  isCameraOff: false,
  devices: DEFAULT_DEVICES,
};

/** How long the first camera picture is used before it is re-acquired in high quality (spec §9). */
export const CAMERA_UPGRADE_DELAY_MS = 1000;

/** The screen is the main picture when there is one, with the camera as overlay (spec §4), unless it is off. */
export function pictureOf({ camera, screen, isCameraOff = false }: Sources) {
  return { main: screen ?? camera, overlay: screen && !isCameraOff ? camera : null };
}

/** The tracks viewers receive for these sources. */
export function layoutOf(sources: Sources): BroadcastLayout {
  const { main, overlay } = pictureOf(sources);
  return {
    main: main?.getVideoTracks()[0] ?? null,
    overlay: overlay?.getVideoTracks()[0] ?? null,
    audio: sources.camera?.getAudioTracks()[0] ?? null,
  };
}

type Listener = (changed: SourceKind) => void;

/**
 * The broadcaster's camera and screen. A store React reads with useSyncExternalStore; listeners also
 * hear which source changed. It releases everything on `release()`, including captures still being
 * granted at that moment.
 */
export class BroadcastMedia {
  private state = INITIAL;
  private readonly listeners = new Set<Listener>();
  /** Bumped by `release()`: a capture granted for an older generation is stopped, not shown. */
  private generation = 0;
  private upgradeTimer: ReturnType<typeof setTimeout> | undefined;

  readonly subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly getSnapshot = () => this.state;

  /** Opens the camera; rejects with the browser's error when it cannot. */
  async startCamera(): Promise<void> {
    const generation = this.generation;
    const stream = await acquireCamera(onDevices(BASIC_CAMERA, this.state.devices));
    if (!this.adopt('camera', stream, generation)) return;
    clearTimeout(this.upgradeTimer);
    this.upgradeTimer = setTimeout(
      () => void this.upgradeCamera(stream, generation),
      CAMERA_UPGRADE_DELAY_MS,
    );
  }

  /** Asks for a screen to share; rejects with the browser's error when it cannot. */
  async startScreen(): Promise<void> {
    const generation = this.generation;
    this.adopt('screen', await acquireScreen(), generation);
  }

  stop(kind: SourceKind): void {
    const stream = this.state[kind];
    if (!stream) return;
    if (kind === 'camera') clearTimeout(this.upgradeTimer);
    stopTracks(stream);
    this.set({ [kind]: null }, kind);
  }

  /** Switches to other devices; a camera that is on is opened again on them (rejects when it cannot). */
  async chooseDevices(devices: DeviceChoice): Promise<void> {
    this.set({ devices }, 'camera');
    const current = this.state.camera;
    if (!current) return;
    clearTimeout(this.upgradeTimer);
    const generation = this.generation;
    const stream = await acquireCamera(onDevices(HIGH_QUALITY_CAMERA, devices), []);
    if (this.state.camera !== current) stopTracks(stream);
    else this.adopt('camera', stream, generation);
  }

  setMicrophoneMuted(isMicrophoneMuted: boolean): void {
    this.set({ isMicrophoneMuted }, 'camera');
    this.applySwitches(this.state.camera);
  }

  setCameraOff(isCameraOff: boolean): void {
    this.set({ isCameraOff }, 'camera');
    this.applySwitches(this.state.camera);
  }

  /** Stops every capture, now and any still being granted. */
  release(): void {
    this.generation++;
    clearTimeout(this.upgradeTimer);
    const { camera, screen } = this.state;
    stopTracks(camera);
    stopTracks(screen);
    this.state = { ...this.state, camera: null, screen: null };
    if (camera) this.notify('camera');
    if (screen) this.notify('screen');
  }

  /** Takes a granted capture as the `kind` source, unless it came too late; answers whether it did. */
  private adopt(kind: SourceKind, stream: MediaStream, generation: number): boolean {
    if (generation !== this.generation) {
      stopTracks(stream);
      return false;
    }
    // The user ends a screen share from the browser's own bar; a camera ends when it is unplugged.
    stream.getVideoTracks()[0]?.addEventListener('ended', () => {
      if (this.state[kind] === stream) this.stop(kind);
    });
    if (kind === 'camera') this.applySwitches(stream);
    const previous = this.state[kind];
    this.set({ [kind]: stream }, kind);
    stopTracks(previous);
    return true;
  }

  private applySwitches(camera: MediaStream | null) {
    camera?.getAudioTracks().forEach((track) => (track.enabled = !this.state.isMicrophoneMuted));
    camera?.getVideoTracks().forEach((track) => (track.enabled = !this.state.isCameraOff));
  }

  private async upgradeCamera(first: MediaStream, generation: number) {
    let better: MediaStream;
    try {
      better = await acquireCamera(onDevices(HIGH_QUALITY_CAMERA, this.state.devices), []);
    } catch (error) {
      console.warn('Keeping the first camera picture: the high-quality one was refused', error);
      return;
    }
    if (this.state.camera !== first) {
      stopTracks(better);
      return;
    }
    this.adopt('camera', better, generation);
  }

  private set(change: Partial<BroadcastState>, changed: SourceKind) {
    this.state = { ...this.state, ...change };
    this.notify(changed);
  }

  private notify(changed: SourceKind) {
    this.listeners.forEach((listener) => listener(changed));
  }
}
