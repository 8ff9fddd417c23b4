import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../../config';
import { probeDurationS, runTool } from './media-tools';
import type { ReplaySegmentRow } from './replays.tables';

/**
 * Where a replay's files live: DATA_DIR/replays/{eventId}/, holding the studio's chunks
 * (segments/{key}/{index}.chunk), what Janus recorded ({key}-….mjr) and the processed file
 * (replay-{lease}.webm). Deleting the replay deletes the folder.
 */
type Dirs = Pick<Config, 'replaysDir'>;

export const eventFolder = (config: Dirs, eventId: number) => path.join(config.replaysDir, String(eventId));

const chunkFile = (config: Dirs, eventId: number, key: string, index: number) =>
  path.join(eventFolder(config, eventId), 'segments', key, `${String(index).padStart(6, '0')}.chunk`);

/** Writes a chunk under a temporary name first: a chunk on disk under its name is always whole. */
export async function writeChunk(
  config: Dirs,
  eventId: number,
  key: string,
  index: number,
  data: Buffer,
): Promise<void> {
  const file = chunkFile(config, eventId, key, index);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(`${file}.tmp`, data);
  await rename(`${file}.tmp`, file);
}

export const replayFile = (config: Dirs, eventId: number, name: string) =>
  path.join(eventFolder(config, eventId), name);

export async function deleteReplayFiles(config: Dirs, eventId: number): Promise<void> {
  await rm(eventFolder(config, eventId), { recursive: true, force: true });
}

/**
 * Removes what earlier tries left (a worker killed mid-way): their work folders and half-written files.
 * Only the holder of the replay's lease calls it, so none of them is in use.
 */
export async function clearLeftovers(config: Dirs, eventId: number): Promise<void> {
  const folder = eventFolder(config, eventId);
  const names = await readdir(folder).catch(() => []);
  for (const name of names.filter((entry) => entry.startsWith('work-') || entry.endsWith('.tmp.webm')))
    await rm(path.join(folder, name), { recursive: true, force: true });
}

/** Turns one Janus recording (the files under a prefix) into a WebM (janus-recording.ts). */
export type JanusToWebm = (
  prefix: string,
  output: string,
  options: { signal?: AbortSignal },
) => Promise<{ durationS: number }>;

/**
 * Makes one seekable WebM of the replay's segments, one after the other, in `work` (a folder of this try
 * alone): each segment is first made a file of its own (a browser segment's chunks joined as the one
 * WebM stream MediaRecorder made, then remuxed for its duration and index; a Janus recording converted),
 * then ffmpeg's concat demuxer joins them without re-encoding. Answers the file and where each segment
 * sits in it (the chat's moments are placed by these). Every segment must have recorded something
 * (recordedSegments).
 */
/** The segments that recorded something: a studio's with a chunk at least, any Janus recorded. */
export const recordedSegments = (segments: ReplaySegmentRow[]) =>
  segments.filter((segment) => segment.source === 'janus' || segment.chunks > 0);

export async function assembleReplay(
  config: Dirs,
  eventId: number,
  segments: ReplaySegmentRow[],
  work: string,
  output: string,
  janusToWebm: JanusToWebm,
  signal: AbortSignal,
): Promise<{
  durationMs: number;
  segments: { key: string; startsAtMs: number; durationMs: number; bytes: number }[];
}> {
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const parts: { key: string; file: string; durationMs: number; bytes: number }[] = [];
  for (const [n, segment] of segments.entries()) {
    const file = path.join(work, `part-${n}.webm`);
    if (segment.source === 'browser') {
      // The chunks, one after the other, are the one WebM stream MediaRecorder made.
      const joined = path.join(work, `part-${n}.joined.webm`);
      const out = await open(joined, 'w');
      try {
        for (let index = 0; index < segment.chunks; index++) {
          signal.throwIfAborted();
          await out.write(await readFile(chunkFile(config, eventId, segment.key, index)));
        }
      } finally {
        await out.close();
      }
      // -c copy: the studio's VP8 and Opus as they are; the remux writes the duration and the cues
      // (the index a player seeks by) that a recording still under way could not.
      await runTool('ffmpeg', ['-v', 'error', '-y', '-i', joined, '-c', 'copy', file], { signal });
      await rm(joined);
      parts.push({
        key: segment.key,
        file,
        durationMs: Math.round((await probeDurationS(file, signal)) * 1000),
        bytes: segment.bytes,
      });
    } else {
      const prefix = path.join(eventFolder(config, eventId), segment.key);
      const { durationS } = await janusToWebm(prefix, file, { signal });
      parts.push({
        key: segment.key,
        file,
        durationMs: Math.round(durationS * 1000),
        bytes: (await stat(file)).size,
      });
    }
  }
  const list = path.join(work, 'parts.txt');
  await writeFile(list, parts.map(({ file }) => `file '${file.replaceAll("'", "'\\''")}'\n`).join(''));
  const temporary = `${output}.tmp.webm`;
  await runTool(
    'ffmpeg',
    [
      ...['-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy'],
      // The index (Cues) before the media: a player learns where every keyframe is from the first bytes.
      ...['-cues_to_front', '1', '-f', 'webm', temporary],
    ],
    { signal },
  );
  await rename(temporary, output);
  await rm(work, { recursive: true, force: true });
  let startsAtMs = 0;
  const placed = parts.map(({ key, durationMs, bytes }) => {
    const part = { key, startsAtMs, durationMs, bytes };
    startsAtMs += durationMs;
    return part;
  });
  return { durationMs: Math.round((await probeDurationS(output, signal)) * 1000), segments: placed };
}
