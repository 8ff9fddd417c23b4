import { HIGH_QUALITY_CAMERA, acquireCamera, acquireScreen, stopTracks } from '../../../lib/media';
import type { BroadcastLayout } from './broadcast-protocol';

export type SourceKind = 'camera' | 'screen';

export type BroadcastSources = { readonly camera: MediaStream | null; readonly screen: MediaStream | null };

const NO_SOURCES: BroadcastSources = { camera: null, screen: null };

/** How long the first camera picture is used before it is re-acquired in high quality (spec §9). */
export const CAMERA_UPGRADE_DELAY_MS = 1000;

/** The screen is the main picture when there is one, with the camera as overlay (spec §4). */
export function pictureOf({ camera, screen }: BroadcastSources) {
  return { main: screen ?? camera, overlay: screen ? camera : null };
}

/** The tracks viewers receive for these sources. */
export function layoutOf(sources: BroadcastSources): BroadcastLayout {
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
  private sources = NO_SOURCES;
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

  readonly getSnapshot = () => this.sources;

  /** Opens the camera; rejects with the browser's error when it cannot. */
  async startCamera(): Promise<void> {
    const generation = this.generation;
    const stream = await acquireCamera();
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
    const stream = this.sources[kind];
    if (!stream) return;
    if (kind === 'camera') clearTimeout(this.upgradeTimer);
    stopTracks(stream);
    this.set({ ...this.sources, [kind]: null }, kind);
  }

  /** Stops every capture, now and any still being granted. */
  release(): void {
    this.generation++;
    clearTimeout(this.upgradeTimer);
    const { camera, screen } = this.sources;
    stopTracks(camera);
    stopTracks(screen);
    this.sources = NO_SOURCES;
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
      if (this.sources[kind] === stream) this.stop(kind);
    });
    const previous = this.sources[kind];
    this.set({ ...this.sources, [kind]: stream }, kind);
    stopTracks(previous);
    return true;
  }

  private async upgradeCamera(first: MediaStream, generation: number) {
    let better: MediaStream;
    try {
      better = await acquireCamera(HIGH_QUALITY_CAMERA, []);
    } catch (error) {
      console.warn('Keeping the first camera picture: the high-quality one was refused', error);
      return;
    }
    if (this.sources.camera !== first) {
      stopTracks(better);
      return;
    }
    this.adopt('camera', better, generation);
  }

  private set(sources: BroadcastSources, changed: SourceKind) {
    this.sources = sources;
    this.notify(changed);
  }

  private notify(changed: SourceKind) {
    this.listeners.forEach((listener) => listener(changed));
  }
}
