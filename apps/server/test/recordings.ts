import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

const run = promisify(execFile);

/**
 * What a studio's MediaRecorder makes of `seconds` of camera and microphone: one WebM stream (VP8 and
 * Opus) written as it goes, with no duration and no index (ffmpeg's live WebM, as MediaRecorder's is),
 * to be cut into chunks. A test pattern and a tone, small enough to make in a fraction of a second.
 */
export async function studioRecording(seconds: number): Promise<Buffer> {
  const dir = await mkdtemp(path.join(inject('tempRoot'), 'recording-'));
  const file = path.join(dir, 'studio.webm');
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=440', '-t', String(seconds)],
    ...['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k', '-c:a', 'libopus'],
    ...['-f', 'webm', '-live', '1', file],
  ]);
  return readFile(file);
}

/** The recording cut into `count` chunks of about the same size, as MediaRecorder hands them over. */
export function chunksOf(recording: Buffer, count: number): Buffer[] {
  const size = Math.ceil(recording.length / count);
  return Array.from({ length: count }, (_, n) => recording.subarray(n * size, (n + 1) * size));
}
