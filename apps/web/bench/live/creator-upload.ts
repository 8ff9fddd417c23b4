import { setTimeout as sleep } from 'node:timers/promises';
import type { MediaMode } from '@stagedoor/shared/live';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../e2e/support/chromium';
import { framesAdvance, goLive, signedIn, watch } from '../../e2e/support/live-pages';
import { createShow, type BenchAccount } from './accounts';
import { childPids, percent, processTree, startCpuMeter, startMachineMeter } from './cpu';
import { complaints, pollUntil, startBenchJanus, startBenchServer, type BenchJanus } from './services';

/** Viewers watching at each measured level; each level adds to the one before. */
const LEVELS = [1, 3, 6];
/** Viewer browsers: the viewers share them, each in a context of its own. */
const VIEWER_BROWSERS = 2;
const PLAYING_TIMEOUT_MS = 30_000;
/** After the last viewer plays: the creator's bandwidth estimate ramps up on each new connection. */
const SETTLE_MS = 8_000;
const WINDOW_MS = 10_000;

/** What one of the creator's peer connections has sent (RTCStats outbound-rtp, all its senders). */
interface PeerSending {
  bytesSent: number;
  framesEncoded: number;
  /** The main video's encoded size and why the encoder holds back ('none', 'cpu', 'bandwidth'). */
  size: string;
  limitation: string;
}

type PeerConnections = { __benchPeerConnections: RTCPeerConnection[] };

/**
 * Runs in the studio before its scripts: every RTCPeerConnection the page makes is kept on `window`,
 * so the bench reads all of them (one per viewer peer to peer, the one to 'sfu' with Janus).
 */
function keepPeerConnections(): void {
  const kept: RTCPeerConnection[] = [];
  (window as unknown as PeerConnections).__benchPeerConnections = kept;
  const Native = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Native {
    constructor(configuration?: RTCConfiguration) {
      super(configuration);
      kept.push(this);
    }
  };
}

/** Each of the studio's connections, by creation order; null for a closed one (its stats are gone). */
function creatorSending(studio: Page): Promise<(PeerSending | null)[]> {
  // No named functions in here: tsx would wrap them in a helper the page does not have.
  return studio.evaluate(() =>
    Promise.all(
      (window as unknown as PeerConnections).__benchPeerConnections.map(async (connection) => {
        if (connection.connectionState === 'closed') return null;
        const sending = { bytesSent: 0, framesEncoded: 0, size: '', limitation: '' };
        (await connection.getStats()).forEach(
          (stats: {
            type: string;
            kind?: string;
            bytesSent?: number;
            framesEncoded?: number;
            frameWidth?: number;
            frameHeight?: number;
            qualityLimitationReason?: string;
          }) => {
            if (stats.type !== 'outbound-rtp') return;
            sending.bytesSent += stats.bytesSent ?? 0;
            // The overlay section encodes nothing while the studio shows no overlay.
            if (stats.kind !== 'video' || !stats.framesEncoded) return;
            sending.framesEncoded += stats.framesEncoded;
            sending.size = `${stats.frameWidth ?? 0}×${stats.frameHeight ?? 0}`;
            sending.limitation = stats.qualityLimitationReason ?? '';
          },
        );
        return sending;
      }),
    ),
  );
}

async function studioOf(
  browser: Browser,
  base: string,
  creator: BenchAccount,
  eventId: number,
): Promise<Page> {
  const context = await signedIn(browser, base, creator);
  await context.addInitScript(keepPeerConnections);
  return goLive(context, eventId);
}

/** Launches a browser and answers it with its main process's pid (a child of this process). */
async function launchWithPid(media: boolean): Promise<{ browser: Browser; pid: number }> {
  const before = new Set(childPids(process.pid));
  const browser = await launchBrowser({ media });
  const pid = childPids(process.pid).find((child) => !before.has(child));
  if (pid === undefined) throw new Error('the Chromium process was not found in /proc');
  return { browser, pid };
}

interface UploadRow {
  mode: MediaMode;
  viewers: number;
  uploadKbps: number;
  creatorCpu: number;
  janusCpu: number | null;
  viewersCpu: number;
  machineBusy: number;
  encodedFps: number;
  sizes: string;
  limitations: string;
}

interface Party {
  studio: Page;
  creatorPid: number;
  viewerPids: number[];
  janus: BenchJanus | null;
}

/** The creator's sending and everyone's CPU over one window, with `viewers` watching. */
async function measure(mode: MediaMode, viewers: number, party: Party): Promise<UploadRow> {
  const { studio, creatorPid, viewerPids, janus } = party;
  const creatorCpu = startCpuMeter(() => processTree(creatorPid));
  const viewersCpu = startCpuMeter(() => viewerPids.flatMap(processTree));
  const janusCpu = janus ? startCpuMeter(() => [janus.pid]) : null;
  const machine = startMachineMeter();
  const startedAt = performance.now();
  const before = await creatorSending(studio);
  await sleep(WINDOW_MS);
  const after = await creatorSending(studio);
  const seconds = (performance.now() - startedAt) / 1000;
  // Only connections open at both readings: one replaced meanwhile would count from zero.
  const pairs = after.flatMap((end, index) => {
    const start = before[index];
    return end && start ? [{ start, end }] : [];
  });
  const delta = (key: 'bytesSent' | 'framesEncoded') =>
    pairs.reduce((sum, { start, end }) => sum + end[key] - start[key], 0) / seconds;
  const distinct = (key: 'size' | 'limitation') =>
    [...new Set(pairs.map(({ end }) => end[key]).filter(Boolean))].join(', ');
  return {
    mode,
    viewers,
    uploadKbps: (delta('bytesSent') * 8) / 1000,
    creatorCpu: creatorCpu.stop(),
    janusCpu: janusCpu?.stop() ?? null,
    viewersCpu: viewersCpu.stop(),
    machineBusy: machine.stop(),
    encodedFps: delta('framesEncoded'),
    sizes: distinct('size'),
    limitations: distinct('limitation'),
  };
}

/** One media mode: a server of that mode, a studio going live, and viewers added level by level. */
async function benchMode(mode: MediaMode): Promise<{ rows: UploadRow[]; complaints: string }> {
  const stops: (() => Promise<void>)[] = [];
  try {
    const janus = mode === 'janus' ? await startBenchJanus() : null;
    if (janus) stops.push(janus.stop);
    const server = await startBenchServer(janus ? [janus] : []);
    stops.push(server.stop);
    const base = server.baseURL;
    const show = await createShow(base, Math.max(...LEVELS));

    const creator = await launchWithPid(true);
    stops.push(() => creator.browser.close());
    const audience = [];
    for (let index = 0; index < VIEWER_BROWSERS; index += 1) {
      const launched = await launchWithPid(false);
      stops.push(() => launched.browser.close());
      audience.push(launched);
    }
    const party = {
      studio: await studioOf(creator.browser, base, show.creator, show.eventId),
      creatorPid: creator.pid,
      viewerPids: audience.map(({ pid }) => pid),
      janus,
    };

    const rows: UploadRow[] = [];
    const views: Page[] = [];
    for (const level of LEVELS) {
      while (views.length < level) {
        const viewer = audience[views.length % audience.length];
        const fan = show.fans[views.length];
        if (!viewer || !fan) throw new Error('not enough viewer browsers or ticket holders');
        views.push(await watch(await signedIn(viewer.browser, base, fan), show.eventId));
      }
      const allPlay = async () => (await Promise.all(views.map(framesAdvance))).every(Boolean);
      if (!(await pollUntil(allPlay, PLAYING_TIMEOUT_MS))) console.warn(`${mode}: not every viewer plays`);
      await sleep(SETTLE_MS);
      rows.push(await measure(mode, level, party));
    }
    return { rows, complaints: await complaints(mode, server, janus ? [janus] : []) };
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
  }
}

function printUpload(rows: UploadRow[]): void {
  console.info(
    `\nCreator upload and CPU, peer to peer vs Janus: headless Chromium studio (fake camera), ` +
      `${LEVELS.join('/')} Chromium viewers in ${VIEWER_BROWSERS} browsers; ${WINDOW_MS / 1000} s windows, ` +
      `${SETTLE_MS / 1000} s after all play. CPU is % of one core.`,
  );
  // eslint-disable-next-line no-console
  console.table(
    rows.map((row) => ({
      mode: row.mode,
      viewers: row.viewers,
      'creator upload kbps': Math.round(row.uploadKbps),
      'per viewer kbps': Math.round(row.uploadKbps / row.viewers),
      'creator CPU': percent(row.creatorCpu),
      'Janus CPU': percent(row.janusCpu),
      'viewer browsers CPU': percent(row.viewersCpu),
      'machine busy (of 2 cores)': percent(row.machineBusy),
      'frames encoded/s': Math.round(row.encodedFps),
      'sent size': row.sizes,
      'limited by': row.limitations,
    })),
  );
  for (const mode of new Set(rows.map((row) => row.mode))) {
    const ofMode = rows.filter((row) => row.mode === mode);
    const [first, last] = [ofMode[0], ofMode.at(-1)];
    if (!first || !last) continue;
    console.info(
      `${mode}: upload(${last.viewers})/upload(${first.viewers}) = ${(last.uploadKbps / first.uploadKbps).toFixed(2)}, ` +
        `creator CPU(${last.viewers})/CPU(${first.viewers}) = ${(last.creatorCpu / first.creatorCpu).toFixed(2)}`,
    );
  }
}

/**
 * Issue 7, part 1: what each viewer costs the creator, peer to peer (one connection and one encoder
 * per viewer) and through Janus (one of each, whatever the audience). Runs inside scripts/in-netns.sh.
 */
export async function benchCreatorUpload(): Promise<void> {
  const p2p = await benchMode('p2p');
  const janus = await benchMode('janus');
  printUpload([...p2p.rows, ...janus.rows]);
  console.info(`${p2p.complaints}\n${janus.complaints}`);
}
