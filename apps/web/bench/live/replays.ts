import { readFileSync } from 'node:fs';
import { ZReplay, type Replay } from '@stagedoor/shared/replays';
import { launchBrowser } from '../../e2e/support/chromium';
import { endShow, goLive, signedIn } from '../../e2e/support/live-pages';
import { createEvent, register, type BenchAccount } from './accounts';
import { CLOCK_TICKS } from './cpu';
import { complaints, pollUntil, startBenchJanus, startBenchServer, type BenchServer } from './services';

/** How long the show runs (BENCH_REPLAY_SHOW_S=10 for a quick try). */
const SHOW_S = Number(process.env.BENCH_REPLAY_SHOW_S ?? 60);
/** The job looks for due replays this often: Stop → ready then measures the processing, not the wait. */
const BENCH_REPLAY_INTERVAL_MS = 200;
/** How often the bench asks for the replay's status, and how long it waits for `ready`. */
const POLL_MS = 100;
const READY_TIMEOUT_MS = 5 * 60_000;

/** A process's own CPU (utime + stime) and its waited-for children's (cutime + cstime), in seconds. */
interface ProcessCpu {
  own: number;
  children: number;
}

function processCpu(pid: number): ProcessCpu {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command name's closing parenthesis: state (0), ppid (1) ... utime (11), stime (12),
  // cutime (13), cstime (14).
  const fields = text
    .slice(text.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  const ticks = (index: number) => fields[index] ?? NaN;
  return {
    own: (ticks(11) + ticks(12)) / CLOCK_TICKS,
    children: (ticks(13) + ticks(14)) / CLOCK_TICKS,
  };
}

interface ReplayFigures {
  mode: string;
  showS: number;
  durationS: number;
  stopToReadyS: number;
  /** From the click to the studio's "The show has ended": the studio's own part of the wait. */
  stopToEndedS: number;
  toolsCpuS: number;
  serverCpuS: number;
  sizeBytes: number;
}

async function replayOf(base: string, account: BenchAccount, eventId: number): Promise<Replay> {
  const response = await fetch(`${base}/api/events/${eventId}/replay`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  if (!response.ok) throw new Error(`GET replay: ${response.status} ${await response.text()}`);
  return ZReplay.parse(await response.json());
}

/** The file's size, from the total of a one-byte range answer (Content-Range: bytes 0-0/<size>). */
async function fileSize(base: string, url: string): Promise<number> {
  const response = await fetch(new URL(url, base), { headers: { range: 'bytes=0-0' } });
  await response.arrayBuffer();
  const total = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
  if (response.status !== 206 || total === undefined)
    throw new Error(`the replay file answered ${response.status} without a size`);
  return Number(total);
}

/**
 * One show of SHOW_S seconds from a studio in headless Chromium (the fake camera: VP8 and Opus), then
 * from the click on "End the show" to GET /api/events/{id}/replay answering `ready`, polled every
 * 100 ms by the creator (the server's job looks every 200 ms).
 *
 * CPU of the processing, from /proc/<server pid>/stat read just before that click and just after
 * `ready`:
 * - tools: the growth of cutime + cstime, the CPU of the server's children that ended and were waited
 *   for in the window: ffprobe, ffmpeg and janus-pp-rec, which the job runs and awaits one by one
 *   (nothing else the server starts ends then);
 * - server: the growth of its own utime + stime over the same window: the job's own work (the lease,
 *   the database, the file's stat) but also all else the server did meanwhile: the Stop itself (the
 *   studio's last chunk peer to peer, the Janus room's teardown), the status polls. An upper bound.
 */
async function measureReplay(server: BenchServer, mode: string): Promise<ReplayFigures> {
  const base = server.baseURL;
  const browser = await launchBrowser({ media: true });
  try {
    const creator = await register(base, 'creator');
    const eventId = await createEvent(base, creator, 1);
    const studio = await goLive(await signedIn(browser, base, creator), eventId);
    const publicAt = performance.now();
    await studio.waitForTimeout(SHOW_S * 1000);
    const before = processCpu(server.pid);
    const stoppedAt = performance.now();
    await endShow(studio);
    // The studio says so once the server took its stopStream (peer to peer, after its last chunk).
    const ended = studio
      .getByRole('region', { name: 'The show has ended' })
      .waitFor({ timeout: READY_TIMEOUT_MS })
      .then(() => performance.now());
    let replay: Replay = { status: 'none' };
    const ready = await pollUntil(
      async () => {
        replay = await replayOf(base, creator, eventId);
        if (replay.status === 'failed') throw new Error(`${mode}: the replay failed`);
        return replay.status === 'ready';
      },
      READY_TIMEOUT_MS,
      POLL_MS,
    );
    const readyAt = performance.now();
    const after = processCpu(server.pid);
    const endedAt = await ended;
    if (!ready || !replay.url)
      throw new Error(`${mode}: no replay ready ${READY_TIMEOUT_MS / 1000} s after Stop`);
    return {
      mode,
      showS: (stoppedAt - publicAt) / 1000,
      durationS: replay.durationS ?? NaN,
      stopToReadyS: (readyAt - stoppedAt) / 1000,
      stopToEndedS: (endedAt - stoppedAt) / 1000,
      toolsCpuS: after.children - before.children,
      serverCpuS: after.own - before.own,
      sizeBytes: await fileSize(base, replay.url),
    };
  } finally {
    await browser.close();
  }
}

function printReplays(rows: ReplayFigures[]): void {
  console.info(
    `\nReplays: a ${SHOW_S} s show from the studio (headless Chromium, fake camera), then "End the show" → ` +
      `GET /api/events/{id}/replay ready (the job every ${BENCH_REPLAY_INTERVAL_MS} ms, polled every ` +
      `${POLL_MS} ms). CPU from /proc/<server>/stat over that window: tools = its waited-for children ` +
      '(ffprobe, ffmpeg, janus-pp-rec), server = its own (the job, and the Stop and polls beside it).',
  );
  // eslint-disable-next-line no-console
  console.table(
    rows.map((row) => ({
      mode: row.mode,
      'show s': row.showS.toFixed(1),
      'replay s': row.durationS.toFixed(1),
      'Stop → ready s': row.stopToReadyS.toFixed(2),
      'of it, Stop → studio ended s': row.stopToEndedS.toFixed(2),
      'tools CPU s': row.toolsCpuS.toFixed(2),
      'server CPU s': row.serverCpuS.toFixed(2),
      MB: (row.sizeBytes / 1e6).toFixed(1),
      'MB per show minute': (row.sizeBytes / 1e6 / (row.showS / 60)).toFixed(1),
    })),
  );
}

/** `tsx bench/stream.ts`'s replay part: peer to peer, the studio's MediaRecorder chunks. */
export async function benchP2pReplay(): Promise<void> {
  const server = await startBenchServer([], { REPLAY_INTERVAL_MS: String(BENCH_REPLAY_INTERVAL_MS) });
  try {
    printReplays([await measureReplay(server, 'peer to peer')]);
    console.info(await complaints('p2p replay', server));
  } finally {
    await server.stop();
  }
}

/** `tsx bench/live.ts replays`, inside scripts/in-netns.sh: Janus's recording, janus-pp-rec and ffmpeg. */
export async function benchJanusReplay(): Promise<void> {
  const janus = await startBenchJanus();
  try {
    const server = await startBenchServer([janus], { REPLAY_INTERVAL_MS: String(BENCH_REPLAY_INTERVAL_MS) });
    try {
      printReplays([await measureReplay(server, 'Janus')]);
      console.info(await complaints('janus replay', server, [janus]));
    } finally {
      await server.stop();
    }
  } finally {
    await janus.stop();
  }
}
