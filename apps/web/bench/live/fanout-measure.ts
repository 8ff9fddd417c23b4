import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BenchShow } from './accounts';
import { percent, startCpuMeter, startMachineMeter } from './cpu';
import { SENT_TRACKS, type IndexWindow, type SentTrack, type SubscriberCount } from './fanout-protocol';
import { Publisher } from './fanout-publisher';
import { SubscriberPool } from './fanout-workers';
import { startBenchJanuses, startBenchServer, type BenchJanus, type BenchServer } from './services';

/**
 * How the Janus benches load a show with light werift subscribers and measure it: a deployment of
 * Janus servers, a Stagedoor server and subscriber processes (a party), joins at a fan's pace, and a
 * steady window's delivery and CPU (janus-fanout.ts, several-janus.ts).
 */

/** Subscriber processes: werift is plain JavaScript, one core at most each (BENCH_FANOUT_WORKERS=1 to compare). */
export const WORKERS = Number(process.env.BENCH_FANOUT_WORKERS ?? 2);
/** New subscribers a second, over all processes: joins spread as fans arriving at a show. */
export const JOINS_PER_SECOND = 20;
export const PLAYING_TIMEOUT_MS = 45_000;
/** After the last one plays: ICE, DTLS and the first retransmissions settle before measuring. */
const SETTLE_MS = 3_000;
export const WINDOW_MS = 10_000;
/** After the window: packets still on their way (or retransmitted) count for it. */
const DRAIN_MS = 2_000;
/** The benches read what each Janus carries where an operator would: GET /metrics. */
const METRICS_TOKEN = 'bench-metrics-token-of-16-or-more';

/** CPU of every party of the bench, % of one core; `janus` in the order of the party's servers. */
export interface CpuShares {
  janus: number[];
  server: number;
  bench: number;
  workers: number;
  machine: number;
}

/** Every Janus together: the whole deployment's forwarding work. */
export const janusTotal = ({ janus }: CpuShares) => janus.reduce((sum, share) => sum + share, 0);

/**
 * What processes outside the bench took meanwhile, % of one core: the machine is shared, and a window
 * where others were busy measured the bench's parties short of CPU.
 */
export const othersOf = (cpu: CpuShares) =>
  Math.max(0, cpu.machine * availableParallelism() - janusTotal(cpu) - cpu.server - cpu.bench - cpu.workers);

/** One deployment under load: its Janus servers, the Stagedoor server, the subscriber processes. */
export interface Party {
  janus: BenchJanus[];
  server: BenchServer;
  pool: SubscriberPool;
  stop(): Promise<void>;
}

/**
 * `janus` throwaway Janus (one: JANUS_URL; several: JANUS_URLS), the built server on them with `env`
 * added, and the subscriber processes; `stop` ends them all, the last started first.
 */
export async function startParty(janus: number, env: Record<string, string> = {}): Promise<Party> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const each of stops.reverse()) await each().catch((error: unknown) => console.error(error));
  };
  try {
    const servers = await startBenchJanuses(janus);
    stops.push(...servers.map((server) => server.stop));
    const server = await startBenchServer(servers, { METRICS_TOKEN, ...env });
    stops.push(server.stop);
    const pool = new SubscriberPool(WORKERS);
    stops.push(() => pool.close());
    return { janus: servers, server, pool, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The CPU of every party of the bench, from now until the answered function is called. */
export function meter({ janus, server, pool }: Party): () => CpuShares {
  const meters = {
    janus: janus.map(({ pid }) => startCpuMeter(() => [pid])),
    server: startCpuMeter(() => [server.pid]),
    bench: startCpuMeter(() => [process.pid]),
    workers: startCpuMeter(() => pool.pids),
    machine: startMachineMeter(),
  };
  return () => ({
    janus: meters.janus.map((each) => each.stop()),
    server: meters.server.stop(),
    bench: meters.bench.stop(),
    workers: meters.workers.stop(),
    machine: meters.machine.stop(),
  });
}

/** What each Janus of the party carries, over the deployment, in the order of the party's servers. */
export interface Carried {
  shows: number[];
  subscribers: number[];
}

/** The server's gauges `stagedoor_janus_shows` and `stagedoor_janus_subscribers` of each Janus (NaN: absent). */
export async function carried({ server, janus }: Party): Promise<Carried> {
  const response = await fetch(`${server.baseURL}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  if (!response.ok) throw new Error(`GET /metrics: ${response.status}`);
  const samples = new Map<string, number>();
  for (const [, name, url, value] of (await response.text()).matchAll(/^(\w+)\{janus="([^"]+)"\} (\S+)$/gm))
    samples.set(`${name} ${url}`, Number(value));
  const gauge = (name: string) => janus.map(({ url }) => samples.get(`${name} ${url}`) ?? NaN);
  return { shows: gauge('stagedoor_janus_shows'), subscribers: gauge('stagedoor_janus_subscribers') };
}

const expectedIn = (window: IndexWindow, track: SentTrack) => window[track].to - window[track].from;

export const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? NaN;

/** A level's steady window: what was sent, what each subscriber received of it, everyone's CPU. */
export interface LevelResult {
  subscribers: number;
  counts: SubscriberCount[];
  window: IndexWindow;
  publisherKbps: number;
  cpu: CpuShares;
  /** What each Janus carried then, as the server counts it. */
  carried: Carried;
}

/** A level's joins: from the first joinStream until every subscriber gets video. */
export interface JoinResult {
  added: number;
  seconds: number;
  cpu: CpuShares;
}

async function joinLevel(party: Party, show: BenchShow, from: number, to: number): Promise<JoinResult> {
  const [stop, startedAt] = [meter(party), performance.now()];
  await party.pool.join(party.server.baseURL, show.eventId, show.fans.slice(from, to), JOINS_PER_SECOND);
  if (!(await party.pool.allPlaying(PLAYING_TIMEOUT_MS))) console.warn(`not every one of ${to} plays`);
  return { added: to - from, seconds: (performance.now() - startedAt) / 1000, cpu: stop() };
}

async function measureLevel(party: Party, publisher: Publisher, subscribers: number): Promise<LevelResult> {
  const stop = meter(party);
  const [from, fromBytes, startedAt] = [
    publisher.sentCounts(),
    await publisher.bytesSent(),
    performance.now(),
  ];
  await sleep(WINDOW_MS);
  const [to, toBytes] = [publisher.sentCounts(), await publisher.bytesSent()];
  const seconds = (performance.now() - startedAt) / 1000;
  const cpu = stop();
  await sleep(DRAIN_MS);
  const window = {
    main: { from: from.main, to: to.main },
    audio: { from: from.audio, to: to.audio },
  };
  const counts = await party.pool.count(window);
  return {
    subscribers,
    counts,
    window,
    publisherKbps: ((toBytes - fromBytes) * 8) / seconds / 1000,
    cpu,
    carried: await carried(party),
  };
}

/**
 * Subscribers join a show already publishing, level by level (each adding to the one before), and
 * each level's steady window is measured.
 */
export async function benchLevels(party: Party, show: BenchShow, levels: readonly number[]) {
  const publisher = await Publisher.start(party.server.baseURL, show.creator.token, show.eventId);
  try {
    await publisher.publish();
    const [measured, joins]: [LevelResult[], JoinResult[]] = [[], []];
    let joined = 0;
    for (const level of levels) {
      joins.push(await joinLevel(party, show, joined, level));
      joined = level;
      await sleep(SETTLE_MS);
      measured.push(await measureLevel(party, publisher, level));
    }
    return { levels: measured, joins };
  } finally {
    await party.pool.leave();
    await publisher.stop();
  }
}

/** A subscriber's share of what it should have received in the window, over the sent tracks. */
function deliveredShare(count: SubscriberCount, window: IndexWindow): number {
  const expected = SENT_TRACKS.reduce((sum, track) => sum + expectedIn(window, track), 0);
  const received = SENT_TRACKS.reduce((sum, track) => sum + count.received[track], 0);
  return expected > 0 ? received / expected : 0;
}

/** The share of a track's packets in the window that reached the subscribers, over them all, in %. */
export const delivered = ({ subscribers, counts, window }: LevelResult, track: SentTrack) =>
  (counts.reduce((sum, count) => sum + count.received[track], 0) /
    (subscribers * expectedIn(window, track))) *
  100;

export const playing = ({ counts }: LevelResult) => counts.filter((count) => count.playing).length;

export function deliveryRow(level: LevelResult) {
  const { subscribers, counts, window } = level;
  const shares = counts.map((count) => deliveredShare(count, window) * 100);
  const firstPackets = counts.flatMap(({ joinToFirstPacketMs }) =>
    joinToFirstPacketMs === null ? [] : [joinToFirstPacketMs],
  );
  return {
    subscribers,
    playing: `${playing(level)}/${subscribers}`,
    'video pkts expected each': expectedIn(window, 'main'),
    'video delivered': percent(delivered(level, 'main')),
    'audio delivered': percent(delivered(level, 'audio')),
    'worst subscriber': percent(Math.min(...shares)),
    'subscribers < 99 %': shares.filter((share) => share < 99).length,
    'join → 1st packet p50/p95 ms': `${quantile(firstPackets, 0.5)} / ${quantile(firstPackets, 0.95)}`,
  };
}

export function cpuRow({ subscribers, cpu, publisherKbps }: LevelResult) {
  return {
    subscribers,
    'Janus CPU': percent(janusTotal(cpu)),
    'Stagedoor server CPU': percent(cpu.server),
    [`subscriber processes (${WORKERS}) CPU`]: percent(cpu.workers),
    'bench + publisher CPU': percent(cpu.bench),
    'machine busy (of 2 cores)': percent(cpu.machine),
    'other processes CPU': percent(othersOf(cpu)),
    'publisher upload kbps': Math.round(publisherKbps),
  };
}
