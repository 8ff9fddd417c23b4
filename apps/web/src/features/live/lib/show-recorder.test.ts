import type { RecordingChunkQuery } from '@stagedoor/shared/replays';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { FakeTrack } from '../testing/fake-media';
import { RECORDING_CHUNK_MS, ShowRecorder } from './show-recorder';

/** The browser's MediaRecorder, driven by the test: `hand` is a chunk handed over on the timeslice. */
class FakeRecorder extends EventTarget {
  static made: FakeRecorder[] = [];
  static isTypeSupported = (type: string) => type.startsWith('video/webm') || type.startsWith('audio/webm');
  state: RecordingState = 'inactive';
  timeslice: number | undefined;

  constructor(
    readonly stream: { tracks: MediaStreamTrack[] },
    readonly options: MediaRecorderOptions,
  ) {
    super();
    FakeRecorder.made.push(this);
  }

  start(timeslice?: number) {
    this.state = 'recording';
    this.timeslice = timeslice;
  }

  hand(bytes: string) {
    const data = Object.assign(new Blob([bytes]), { bytes });
    this.dispatchEvent(Object.assign(new Event('dataavailable'), { data }));
  }

  /** As the browser does: the last chunk, then `stop`, a moment later. */
  stop() {
    this.state = 'inactive';
    setTimeout(() => {
      this.hand('last');
      this.dispatchEvent(new Event('stop'));
    });
  }
}

class FakeStream {
  constructor(readonly tracks: MediaStreamTrack[]) {}
}

const track = (kind: 'audio' | 'video') => new FakeTrack(kind) as unknown as MediaStreamTrack;

beforeEach(() => {
  FakeRecorder.made = [];
  vi.stubGlobal('MediaRecorder', FakeRecorder);
  vi.stubGlobal('MediaStream', FakeStream);
});
afterEach(() => vi.unstubAllGlobals());

/** What the fake recorder put in the chunk (jsdom's Blob cannot be read back). */
const chunkText = (chunk: Blob) => (chunk as Blob & { bytes: string }).bytes;

function recorderWith(send: (query: RecordingChunkQuery, chunk: Blob) => Promise<void>) {
  const sent: { query: RecordingChunkQuery; text: string }[] = [];
  const recorder = new ShowRecorder(async (query, chunk) => {
    await send(query, chunk);
    sent.push({ query, text: chunkText(chunk) });
  });
  return { recorder, sent };
}

describe('ShowRecorder', () => {
  it('records the main picture and the sound as VP8 and Opus WebM, sending each chunk in order', async () => {
    const { recorder, sent } = recorderWith(async () => undefined);
    const [main, audio] = [track('video'), track('audio')];
    recorder.record({ main, audio });
    const [made] = FakeRecorder.made;
    expect(made?.stream.tracks).toEqual([main, audio]);
    expect(made?.options.mimeType).toBe('video/webm;codecs=vp8,opus');
    expect(made?.timeslice).toBe(RECORDING_CHUNK_MS);

    made?.hand('one');
    made?.hand('two');
    await recorder.finish();
    expect(sent.map(({ text }) => text)).toEqual(['one', 'two', 'last']);
    expect(sent.map(({ query }) => query.index)).toEqual([0, 1, 2]);
    // Only the first chunk says how long the recorder had run: it places the segment in time.
    expect(sent[0]?.query.elapsedMs).toEqual(expect.any(Number));
    expect(sent.slice(1).every(({ query }) => query.elapsedMs === undefined)).toBe(true);
    expect(new Set(sent.map(({ query }) => query.segment)).size).toBe(1);
  });

  it('starts a new segment when the tracks change, and keeps recording when they do not', () => {
    const { recorder } = recorderWith(async () => undefined);
    const audio = track('audio');
    const camera = track('video');
    recorder.record({ main: camera, audio });
    recorder.record({ main: camera, audio });
    expect(FakeRecorder.made).toHaveLength(1);
    recorder.record({ main: track('video'), audio });
    expect(FakeRecorder.made).toHaveLength(2);
    expect(FakeRecorder.made[0]?.state).toBe('inactive');
    expect(FakeRecorder.made[1]?.state).toBe('recording');
  });

  it('sends a chunk again after a network failure or a 503, and gives up on a refusal', async () => {
    vi.useFakeTimers();
    try {
      const failures = [new TypeError('Failed to fetch'), new ApiError(503, null)];
      const { recorder, sent } = recorderWith(async (query) => {
        if (query.index === 0 && failures.length > 0) throw failures.shift();
        if (query.index === 1) throw new ApiError(409, null);
      });
      recorder.record({ main: track('video'), audio: track('audio') });
      const [made] = FakeRecorder.made;
      made?.hand('kept');
      made?.hand('refused');
      const finished = recorder.finish();
      await vi.runAllTimersAsync();
      await finished;
      expect(sent.map(({ text }) => text)).toEqual(['kept', 'last']);
      expect(failures).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('records nothing more once finished', async () => {
    const { recorder } = recorderWith(async () => undefined);
    await recorder.finish();
    recorder.record({ main: track('video'), audio: track('audio') });
    expect(FakeRecorder.made).toHaveLength(0);
  });
});
