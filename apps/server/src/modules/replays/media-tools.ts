import { spawn } from 'node:child_process';

/** The last of a failed tool's output is enough to say why; more would flood the log and the row. */
const OUTPUT_TAIL_CHARS = 2_000;

/**
 * Runs one of the media tools (ffmpeg, ffprobe, janus-pp-rec) without a shell and answers what it
 * printed on stdout; rejects naming the tool, the file it worked on (`about`, the last argument unless
 * given) and the tail of its output (janus-pp-rec logs to stdout, ffmpeg to stderr: both are kept). The
 * signal kills it: a job whose lease was lost, a server closing.
 */
export function runTool(
  command: string,
  args: string[],
  options: { about?: string; signal?: AbortSignal } = {},
): Promise<string> {
  const about = options.about ?? args.at(-1);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], signal: options.signal });
    let stdout = '';
    let tail = '';
    const keep = (text: string) => (tail = (tail + text).slice(-OUTPUT_TAIL_CHARS));
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout += text;
      keep(text);
    });
    child.stderr.setEncoding('utf8').on('data', keep);
    child.on('error', (error) =>
      reject(new Error(`${command} (${about}): ${error.message}`, { cause: error })),
    );
    child.on('close', (code, killedBy) => {
      if (code === 0) return resolve(stdout);
      const how = killedBy ? `was killed (${killedBy})` : `exited with ${code}`;
      reject(new Error(`${command} ${how} on ${about}: ${tail.trim()}`));
    });
  });
}

/** The duration of a media file, in seconds, as ffprobe reads it from its container. */
export async function probeDurationS(file: string, signal?: AbortSignal): Promise<number> {
  const printed = await runTool(
    'ffprobe',
    ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', file],
    { signal },
  );
  const durationS = Number(printed.trim());
  if (!Number.isFinite(durationS) || durationS <= 0) throw new Error(`ffprobe read no duration in ${file}`);
  return durationS;
}
