import { mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { janusRecordingToWebm } from './janus-recording';

// What a recording looks like before any tool runs: the conversion itself needs janus-pp-rec and
// ffmpeg, and is checked against Janus in a live show (see the branch's report).

let dir: string;
const prefix = () => path.join(dir, '1795757268882-153503867660818');
const output = () => path.join(dir, 'replay.webm');
/** A file as Janus leaves it when the track never received a packet: its magic alone. */
const headerOnly = 'MJR00002';

beforeEach(async () => {
  dir = await mkdtemp(path.join(inject('tempRoot'), 'janus-recording-'));
});

describe('janusRecordingToWebm', () => {
  it('names the prefix when Janus wrote nothing under it', async () => {
    await expect(janusRecordingToWebm(prefix(), output())).rejects.toThrow(
      `No Janus recording under ${prefix()} (no 1795757268882-153503867660818-*.mjr in ${dir})`,
    );
  });

  it('refuses a recording Janus is still writing', async () => {
    await writeFile(`${prefix()}-video-0.mjr.tmp`, headerOnly);
    await expect(janusRecordingToWebm(prefix(), output())).rejects.toThrow(
      `${prefix()}-video-0.mjr.tmp is still being written by Janus`,
    );
  });

  it('takes a file left open by a Janus that stopped mid-show for what it holds', async () => {
    // Written to last a minute ago, still .tmp: its Janus was killed, the show went on elsewhere.
    const file = `${prefix()}-video-0.mjr.tmp`;
    await writeFile(file, headerOnly);
    const aMinuteAgo = new Date(Date.now() - 60_000);
    await utimes(file, aMinuteAgo, aMinuteAgo);
    await expect(janusRecordingToWebm(prefix(), output())).rejects.toThrow(
      `Janus recorded no packet under ${prefix()}`,
    );
  });

  it('says so when no track received a packet, and leaves nothing behind', async () => {
    for (const track of ['video-0', 'audio-2']) await writeFile(`${prefix()}-${track}.mjr`, headerOnly);
    // Janus killed before it flushed anything of a track.
    await writeFile(`${prefix()}-video-1.mjr`, '');
    await expect(janusRecordingToWebm(prefix(), output())).rejects.toThrow(
      `Janus recorded no packet under ${prefix()}`,
    );
    expect((await readdir(dir)).sort()).toEqual(
      ['video-0', 'video-1', 'audio-2'].map((track) => `1795757268882-153503867660818-${track}.mjr`).sort(),
    );
  });

  it('refuses a file that is not a Janus recording', async () => {
    await writeFile(`${prefix()}-audio-2.mjr`, 'RIFF....WAVE');
    await expect(janusRecordingToWebm(prefix(), output())).rejects.toThrow(
      `${prefix()}-audio-2.mjr is not a Janus recording`,
    );
  });
});
