import type { RecordingChunkQuery } from '@stagedoor/shared/replays';
import { ApiError } from '../../../lib/api-client';

/** MediaRecorder hands over a chunk this often: what a reload or a lost connection can cost at most. */
export const RECORDING_CHUNK_MS = 2_000;
/** The picture's bitrate in the recording: the replay's quality, about 19 MB a minute with the sound. */
const RECORDING_VIDEO_BPS = 2_500_000;
/** A chunk the server could not take (network, 5xx, 408, 429) is sent again, waiting longer each time. */
const RETRY_BASE_MS = 1_000;
const RETRY_MAX_MS = 15_000;
const MAX_TRIES = 10;
/** How long stopping the show waits for the last chunks to reach the server. */
const FINISH_TIMEOUT_MS = 15_000;

/** The sound and main picture the studio sends (broadcast-media.ts layoutOf). */
interface RecordedTracks {
  main: MediaStreamTrack | null;
  audio: MediaStreamTrack | null;
}

type SendChunk = (query: RecordingChunkQuery, chunk: Blob) => Promise<void>;

/** WebM with VP8 and Opus, as Janus's recordings are: both make one replay without re-encoding. */
function webmType(video: boolean): string | undefined {
  const wanted = video
    ? ['video/webm;codecs=vp8,opus', 'video/webm']
    : ['audio/webm;codecs=opus', 'audio/webm'];
  return wanted.find((type) => MediaRecorder.isTypeSupported(type));
}

const mayRetry = (error: unknown) =>
  !(error instanceof ApiError) || error.status >= 500 || error.status === 408 || error.status === 429;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Records a public show peer to peer (through Janus, Janus records it): what the studio sends, its main
 * picture and its sound (the overlay is left out, as in Janus's recordings), into WebM chunks posted in
 * order as they come (POST /events/{id}/recording), each sent again until the server has it. One
 * recorder is one segment: new tracks (another source, a reloaded studio) start a new one, which the
 * replay plays after the last. Stopping waits for the last chunk to be sent.
 */
export class ShowRecorder {
  private recorder: MediaRecorder | null = null;
  private recorded: MediaStreamTrack[] = [];
  /** Every chunk's upload, one after the other. */
  private uploads: Promise<void> = Promise.resolve();
  private finishing: Promise<void> | null = null;

  constructor(private readonly send: SendChunk) {}

  /** Records these tracks from now; the same ones go on as they are. */
  record({ main, audio }: RecordedTracks): void {
    if (this.finishing || typeof MediaRecorder === 'undefined') return;
    const tracks = [main, audio].filter(
      (track): track is MediaStreamTrack => track !== null && track.readyState === 'live',
    );
    if (tracks.length === this.recorded.length && tracks.every((track, n) => track === this.recorded[n]))
      return;
    this.stopRecorder();
    this.recorded = tracks;
    if (tracks.length === 0) return;
    const mimeType = webmType(tracks.some((track) => track.kind === 'video'));
    const recorder = new MediaRecorder(new MediaStream(tracks), {
      ...(mimeType && { mimeType }),
      videoBitsPerSecond: RECORDING_VIDEO_BPS,
    });
    const segment = crypto.randomUUID();
    const startedAt = performance.now();
    let index = 0;
    recorder.addEventListener('dataavailable', ({ data }) => {
      if (data.size === 0) return;
      const query: RecordingChunkQuery = {
        segment,
        index: index++,
        // The first chunk places the segment in time: how long the recorder had been running.
        ...(index === 1 && { elapsedMs: Math.min(Math.round(performance.now() - startedAt), 60_000) }),
      };
      this.uploads = this.uploads.then(() => this.upload(query, data));
    });
    recorder.start(RECORDING_CHUNK_MS);
    this.recorder = recorder;
  }

  /** Stops recording; resolves once every chunk reached the server (or after FINISH_TIMEOUT_MS). */
  finish(): Promise<void> {
    this.finishing ??= (async () => {
      const recorder = this.recorder;
      if (recorder && recorder.state !== 'inactive') {
        const stopped = new Promise((resolve) => recorder.addEventListener('stop', resolve, { once: true }));
        this.stopRecorder();
        await stopped;
      }
      await Promise.race([this.uploads, pause(FINISH_TIMEOUT_MS)]);
    })();
    return this.finishing;
  }

  /** Stops the current recorder: its last chunk is handed over (and queued) before its `stop`. */
  private stopRecorder(): void {
    if (this.recorder?.state !== 'inactive') this.recorder?.stop();
    this.recorder = null;
  }

  private async upload(query: RecordingChunkQuery, chunk: Blob): Promise<void> {
    for (let tries = 1; ; tries++) {
      try {
        return await this.send(query, chunk);
      } catch (error) {
        // Refused for good (the show is no longer recorded, a limit): the show goes on unrecorded.
        if (!mayRetry(error) || tries >= MAX_TRIES) {
          console.warn('A chunk of the recording was not sent', error);
          return;
        }
        await pause(Math.min(RETRY_BASE_MS * 2 ** (tries - 1), RETRY_MAX_MS));
      }
    }
  }
}
