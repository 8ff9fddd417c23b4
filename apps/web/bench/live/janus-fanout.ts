import { setTimeout as sleep } from 'node:timers/promises';
import { buyTickets, createEvent, createShow, type BenchShow } from './accounts';
import { percent, startCpuMeter, startMachineMeter, type CpuMeter } from './cpu';
import { SENT_TRACKS, type IndexWindow, type SentTrack, type SubscriberCount } from './fanout-protocol';
import { Publisher, PUBLISHED_RATES } from './fanout-publisher';
import { SubscriberPool } from './fanout-workers';
import { complaints, startBenchJanus, startBenchServer, type BenchJanus, type BenchServer } from './services';

/**
 * Subscribers in the show at each measured level, each adding to the one before
 * (BENCH_FANOUT_LEVELS=5,10 for a quick try).
 */
const LEVELS = (process.env.BENCH_FANOUT_LEVELS ?? '100,200').split(',').map(Number);
/** Subscriber processes: werift is plain JavaScript, one core at most each (BENCH_FANOUT_WORKERS=1 to compare). */
const WORKERS = Number(process.env.BENCH_FANOUT_WORKERS ?? 2);
/** New subscribers a second, over all processes: joins spread as fans arriving at a show. */
const JOINS_PER_SECOND = 20;
const PLAYING_TIMEOUT_MS = 45_000;
/** After the last one plays: ICE, DTLS and the first retransmissions settle before measuring. */
const SETTLE_MS = 3_000;
const WINDOW_MS = 10_000;
/** After the window: packets still on their way (or retransmitted) count for it. */
const DRAIN_MS = 2_000;
/** Fans waiting on the page join this fast once they hear `streamStarted`: all at once, nearly. */
const WAITING_JOINS_PER_SECOND = 200;

type CpuShares = Record<'janus' | 'server' | 'bench' | 'workers' | 'machine', number>;

/** The CPU of every party of the bench, from now until the answered function is called. */
function startMeters(janus: BenchJanus, server: BenchServer, pool: SubscriberPool): () => CpuShares {
  const meters: Record<keyof CpuShares, CpuMeter> = {
    janus: startCpuMeter(() => [janus.pid]),
    server: startCpuMeter(() => [server.pid]),
    bench: startCpuMeter(() => [process.pid]),
    workers: startCpuMeter(() => pool.pids),
    machine: startMachineMeter(),
  };
  return () => ({
    janus: meters.janus.stop(),
    server: meters.server.stop(),
    bench: meters.bench.stop(),
    workers: meters.workers.stop(),
    machine: meters.machine.stop(),
  });
}

interface Party {
  janus: BenchJanus;
  server: BenchServer;
  pool: SubscriberPool;
}

const meter = ({ janus, server, pool }: Party) => startMeters(janus, server, pool);

const expectedIn = (window: IndexWindow, track: SentTrack) => window[track].to - window[track].from;

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))] ?? NaN;

/** A level's steady window: what was sent, what each subscriber received of it, everyone's CPU. */
interface LevelResult {
  subscribers: number;
  counts: SubscriberCount[];
  window: IndexWindow;
  publisherKbps: number;
  cpu: CpuShares;
}

/** A level's joins: from the first joinStream until every subscriber gets video. */
interface JoinResult {
  added: number;
  seconds: number;
  cpu: CpuShares;
}

/** Fans already on the page when the creator's media comes up: each one's wait for its first packet. */
interface WaitingResult {
  fans: number;
  /** From the publisher's offer until its own connection is up (Janus's answer, ICE, DTLS). */
  publisherUpMs: number;
  playing: number;
  /**
   * From the publisher's connection up: each fan's wait for Janus's offer (the server's and Janus's
   * share: WEBRTCUP, a subscription per fan), then for its first packet (the answer, ICE and DTLS).
   */
  offerWaitsMs: number[];
  waitsMs: number[];
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
  return { subscribers, counts, window, publisherKbps: ((toBytes - fromBytes) * 8) / seconds / 1000, cpu };
}

/** The levels: subscribers join a show already publishing, and each level's steady window is measured. */
async function benchLevels(party: Party, show: BenchShow) {
  const publisher = await Publisher.start(party.server.baseURL, show.creator.token, show.eventId);
  try {
    await publisher.publish();
    const [levels, joins]: [LevelResult[], JoinResult[]] = [[], []];
    let joined = 0;
    for (const level of LEVELS) {
      joins.push(await joinLevel(party, show, joined, level));
      joined = level;
      await sleep(SETTLE_MS);
      levels.push(await measureLevel(party, publisher, level));
    }
    return { levels, joins };
  } finally {
    await party.pool.leave();
    await publisher.stop();
  }
}

/**
 * The show's start with every fan already waiting (the studio's Start with a full house): all join the
 * live stream before its media is up, then Janus subscribes them all at once when it is.
 */
async function benchWaitingFans(party: Party, show: BenchShow): Promise<WaitingResult> {
  const base = party.server.baseURL;
  const eventId = await createEvent(base, show.creator, show.fans.length);
  await buyTickets(base, show.fans, eventId);
  const publisher = await Publisher.start(base, show.creator.token, eventId);
  try {
    await party.pool.join(base, eventId, show.fans, WAITING_JOINS_PER_SECOND);
    const [stop, publishedAt] = [meter(party), Date.now()];
    await publisher.publish();
    const upAt = Date.now();
    await party.pool.allPlaying(PLAYING_TIMEOUT_MS);
    const cpu = stop();
    const counts = await party.pool.count({ main: { from: 0, to: 0 }, audio: { from: 0, to: 0 } });
    // From the publisher's connection being up: its own ICE and DTLS are the bench's, not the product's.
    const since = (at: number | null) => (at === null ? [] : [at - upAt]);
    const waitsMs = counts.flatMap(({ firstPacketAt }) => since(firstPacketAt));
    const offerWaitsMs = counts.flatMap(({ offerAt }) => since(offerAt));
    return {
      fans: show.fans.length,
      publisherUpMs: upAt - publishedAt,
      playing: waitsMs.length,
      offerWaitsMs,
      waitsMs,
      cpu,
    };
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

function deliveryRow({ subscribers, counts, window }: LevelResult) {
  const delivered = (track: SentTrack) =>
    (counts.reduce((sum, count) => sum + count.received[track], 0) /
      (subscribers * expectedIn(window, track))) *
    100;
  const shares = counts.map((count) => deliveredShare(count, window) * 100);
  const firstPackets = counts.flatMap(({ joinToFirstPacketMs }) =>
    joinToFirstPacketMs === null ? [] : [joinToFirstPacketMs],
  );
  return {
    subscribers,
    playing: `${counts.filter(({ playing }) => playing).length}/${subscribers}`,
    'video pkts expected each': expectedIn(window, 'main'),
    'video delivered': percent(delivered('main')),
    'audio delivered': percent(delivered('audio')),
    'worst subscriber': percent(Math.min(...shares)),
    'subscribers < 99 %': shares.filter((share) => share < 99).length,
    'join → 1st packet p50/p95 ms': `${quantile(firstPackets, 0.5)} / ${quantile(firstPackets, 0.95)}`,
  };
}

function cpuRow({ subscribers, cpu, publisherKbps }: LevelResult) {
  return {
    subscribers,
    'Janus CPU': percent(cpu.janus),
    'Stagedoor server CPU': percent(cpu.server),
    [`subscriber processes (${WORKERS}) CPU`]: percent(cpu.workers),
    'bench + publisher CPU': percent(cpu.bench),
    'machine busy (of 2 cores)': percent(cpu.machine),
    'publisher upload kbps': Math.round(publisherKbps),
  };
}

function joinRow({ added, seconds, cpu }: JoinResult) {
  return {
    'subscribers added': added,
    [`joined at ${JOINS_PER_SECOND}/s, all playing after s`]: Number(seconds.toFixed(1)),
    'Janus CPU': percent(cpu.janus),
    'Stagedoor server CPU': percent(cpu.server),
    'subscriber processes CPU': percent(cpu.workers),
    'machine busy (of 2 cores)': percent(cpu.machine),
  };
}

function waitingRow({ fans, publisherUpMs, playing, offerWaitsMs, waitsMs, cpu }: WaitingResult) {
  const spread = (values: number[]) =>
    `${quantile(values, 0.5)} / ${quantile(values, 0.95)} / ${Math.max(...values)}`;
  return {
    'fans waiting': fans,
    playing: `${playing}/${fans}`,
    'publisher up ms': publisherUpMs,
    'publisher up → offer p50/p95/last ms': spread(offerWaitsMs),
    'up → 1st packet p50/p95/last ms': spread(waitsMs),
    'Janus CPU': percent(cpu.janus),
    'Stagedoor server CPU': percent(cpu.server),
    'subscriber processes CPU': percent(cpu.workers),
  };
}

function printFanout(levels: LevelResult[], joins: JoinResult[], waiting: WaitingResult): void {
  const rate = (track: SentTrack) => `${PUBLISHED_RATES[track].packetsPerSecond} pkt/s`;
  console.info(
    `\nJanus fan-out: one werift publisher (synthetic VP8 ${rate('main')} + Opus ${rate('audio')}), ` +
      `light werift subscribers joining over socket.io in ${WORKERS} processes; ${WINDOW_MS / 1000} s windows. ` +
      'CPU is % of one core.',
  );
  // eslint-disable-next-line no-console
  console.table(levels.map(deliveryRow));
  // eslint-disable-next-line no-console
  console.table(levels.map(cpuRow));
  const [first, last] = [levels[0], levels.at(-1)];
  if (first && last && first !== last) {
    console.info(
      `${last.subscribers} vs ${first.subscribers} subscribers: ` +
        `Janus CPU ×${(last.cpu.janus / first.cpu.janus).toFixed(2)}, ` +
        `publisher upload ×${(last.publisherKbps / first.publisherKbps).toFixed(2)} (flat is 1)`,
    );
  }
  console.info('While joining (socket.io, joinStream, a Janus subscription, ICE and DTLS each):');
  // eslint-disable-next-line no-console
  console.table(joins.map(joinRow));
  console.info('Fans waiting on the page when the media comes up (all subscribed at once):');
  // eslint-disable-next-line no-console
  console.table([waitingRow(waiting)]);
}

/**
 * Issue 7, part 2: Janus's fan-out to 100 and 200 light subscribers that join through Stagedoor's own
 * protocol, then a show starting with all of them waiting. Runs inside scripts/in-netns.sh; the load
 * (publisher and subscribers) comes from this process and its children, never from the server it loads.
 */
export async function benchJanusFanout(): Promise<void> {
  const stops: (() => Promise<void>)[] = [];
  try {
    const janus = await startBenchJanus();
    stops.push(janus.stop);
    const server = await startBenchServer(janus);
    stops.push(server.stop);
    const pool = new SubscriberPool(WORKERS);
    stops.push(() => pool.close());
    const party = { janus, server, pool };
    const show = await createShow(server.baseURL, Math.max(...LEVELS));

    const { levels, joins } = await benchLevels(party, show);
    const waiting = await benchWaitingFans(party, show);
    printFanout(levels, joins, waiting);
    console.info(await complaints('fan-out', server, janus));
  } finally {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
  }
}
