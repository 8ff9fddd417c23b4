import { mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { probeDurationS, runTool } from './media-tools';

/**
 * Janus closes a recording's files within a second or so of the publication's end (they are `.mjr.tmp`
 * until then): a file still open this long after its last write was left open by a Janus that stopped
 * (killed, or crashed) mid-show, and holds what it recorded until then.
 */
export const JANUS_CLOSES_FILES_MS = 5_000;

/** Janus's own recording format: this magic, then a 2-byte length and a JSON header (written with the first packet). */
const MJR_MAGIC = 'MJR00002';
/**
 * janus-pp-rec's audio skew threshold, in ms: where the microphone's clock (audio RTP timestamps) has
 * drifted this far from the times Janus received the packets, it drops or skips audio to catch up, so a
 * long show's sound stays on the picture (video timestamps follow the system clock). 120 ms is what
 * Janus's authors tested it with (janus-gateway pull request 1870); it stays below lip-sync's limits.
 */
const AUDIO_SKEW_MS = '120';

/** One track as Janus recorded it: `${prefix}-${kind}-${mindex}.mjr`. */
interface RecordedTrack {
  file: string;
  kind: 'audio' | 'video';
  /** Its m-line in the publisher's offer (decision 0015: 0 main picture, 1 overlay, 2 sound). */
  mindex: number;
  codec: string;
  /** When Janus wrote its first packet (µs since the epoch): where the track starts in time. */
  firstPacketUs: number;
}

/**
 * Turns one publication that Janus recorded under `prefix` (`${dir}/${eventId}/${key}`, see
 * janus-media.ts) into one seekable WebM at `output`: the main picture (VP8) and the sound (Opus),
 * aligned in time, without re-encoding. The camera overlay (a second video track) is left out: a
 * WebM player shows one picture, and compositing it would mean re-encoding the whole show.
 *
 * The file appears under `output` complete or not at all (written beside it, renamed at the end).
 * Rejects with the file and the tool that failed, and the tail of what it printed; the signal kills
 * the tool running and rejects.
 */
export async function janusRecordingToWebm(
  prefix: string,
  output: string,
  options: { signal?: AbortSignal } = {},
): Promise<{ durationS: number }> {
  const { signal } = options;
  const tracks = await recordedTracks(prefix);
  // The lowest m-line of each kind: the main picture (never the overlay), and the one sound track.
  const video = tracks.find(({ kind }) => kind === 'video');
  const audio = tracks.find(({ kind }) => kind === 'audio');
  const kept = [video, audio].filter((track) => track !== undefined);
  if (kept.length === 0) throw new Error(`Janus recorded no packet under ${prefix}`);
  for (const track of kept) {
    const expected = track.kind === 'video' ? 'vp8' : 'opus';
    // Our rooms force these codecs; anything else would need more than a copy into WebM.
    if (track.codec !== expected) throw new Error(`${track.file}: ${track.codec}, not ${expected}`);
  }

  const work = await mkdtemp(path.join(path.dirname(output), '.janus-recording-'));
  const partial = path.join(work, 'replay.webm');
  try {
    const start = Math.min(...kept.map(({ firstPacketUs }) => firstPacketUs));
    const inputs: string[] = [];
    for (const track of kept) {
      const extracted = path.join(work, track.kind === 'video' ? 'video.webm' : 'audio.opus');
      await runTool(
        'janus-pp-rec',
        [
          // Warnings and errors only, without colours: what an error message quotes.
          '--debug-level=3',
          '--disable-colors',
          ...(track.kind === 'audio' ? [`--audioskew=${AUDIO_SKEW_MS}`] : []),
          track.file,
          extracted,
        ],
        { about: track.file, signal },
      );
      // janus-pp-rec starts each file at its first packet: the later track starts that much later.
      const offsetS = (track.firstPacketUs - start) / 1e6;
      inputs.push('-itsoffset', offsetS.toFixed(6), '-i', extracted);
    }
    await runTool(
      'ffmpeg',
      [
        '-nostdin',
        '-hide_banner',
        '-loglevel',
        'error',
        ...inputs,
        // Each input's one track, copied as it was sent (no re-encoding).
        ...kept.flatMap((_, index) => ['-map', `${index}:0`]),
        '-c',
        'copy',
        // The index (Cues) before the clusters: a browser reading the start learns where every
        // keyframe is, and seeks with one range request.
        '-cues_to_front',
        '1',
        '-f',
        'webm',
        partial,
      ],
      { about: prefix, signal },
    );
    const durationS = await probeDurationS(partial, signal);
    await rename(partial, output);
    return { durationS };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The tracks Janus recorded under `prefix`, by m-line, and when each began. Rejects while a file is
 * still being written (`.mjr.tmp`, deploy/janus/janus.jcfg, written to within JANUS_CLOSES_FILES_MS):
 * the publication has not ended; one written to longer ago was left open by a Janus that stopped (the
 * show went on on another Janus), and counts with what it holds. A track that never received a packet
 * (a header alone) is left out.
 */
async function recordedTracks(prefix: string): Promise<RecordedTrack[]> {
  const dir = path.dirname(prefix);
  const base = path.basename(prefix);
  const names = await readdir(dir).catch((error: unknown) => {
    throw new Error(`No Janus recording under ${prefix}: ${(error as Error).message}`, { cause: error });
  });
  const tracks: RecordedTrack[] = [];
  for (const name of names) {
    if (!name.startsWith(`${base}-`)) continue;
    const match = /^(audio|video|data)-(\d+)\.mjr(\.tmp)?$/.exec(name.slice(base.length + 1));
    if (!match) continue;
    const [, kind, mindex, open] = match;
    const file = path.join(dir, name);
    if (open && Date.now() - (await stat(file)).mtimeMs < JANUS_CLOSES_FILES_MS)
      throw new Error(`${file} is still being written by Janus`);
    if (kind === 'data') continue;
    const header = await mjrHeader(file);
    if (header) tracks.push({ file, kind: kind as RecordedTrack['kind'], mindex: Number(mindex), ...header });
  }
  if (tracks.length === 0 && !names.some((name) => name.startsWith(`${base}-`)))
    throw new Error(`No Janus recording under ${prefix} (no ${base}-*.mjr in ${dir})`);
  return tracks.sort((a, b) => a.mindex - b.mindex);
}

/** The codec and first packet's time of an .mjr file; null if Janus wrote no packet in it. */
async function mjrHeader(file: string): Promise<{ codec: string; firstPacketUs: number } | null> {
  const handle = await open(file, 'r');
  try {
    const start = Buffer.alloc(MJR_MAGIC.length + 2);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    // Empty: Janus stopped (crashed) before flushing even the magic of a track that had no packet yet.
    if (bytesRead === 0) return null;
    if (start.toString('latin1', 0, MJR_MAGIC.length) !== MJR_MAGIC)
      throw new Error(`${file} is not a Janus recording (${MJR_MAGIC})`);
    if (bytesRead < start.length) return null;
    const json = Buffer.alloc(start.readUInt16BE(MJR_MAGIC.length));
    await handle.read(json, 0, json.length, start.length);
    // c: codec, u: when the first packet was written (s: when the file was created).
    const { c, u } = JSON.parse(json.toString('utf8')) as { c?: unknown; u?: unknown };
    if (typeof c !== 'string' || typeof u !== 'number') throw new Error(`${file}: header without c or u`);
    return { codec: c, firstPacketUs: u };
  } finally {
    await handle.close();
  }
}
