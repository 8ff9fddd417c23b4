import { anotherShow, createShow, type BenchShow } from './accounts';
import { percent } from './cpu';
import {
  benchLevels,
  cpuRow,
  deliveryRow,
  janusTotal,
  JOINS_PER_SECOND,
  meter,
  PLAYING_TIMEOUT_MS,
  quantile,
  startParty,
  WINDOW_MS,
  WORKERS,
  type CpuShares,
  type JoinResult,
  type LevelResult,
  type Party,
} from './fanout-measure';
import { NO_WINDOW, type SentTrack } from './fanout-protocol';
import { Publisher, PUBLISHED_RATES } from './fanout-publisher';
import { complaints } from './services';

/**
 * Subscribers in the show at each measured level, each adding to the one before
 * (BENCH_FANOUT_LEVELS=5,10 for a quick try).
 */
const LEVELS = (process.env.BENCH_FANOUT_LEVELS ?? '100,200').split(',').map(Number);
/** Fans waiting on the page join this fast once they hear `streamStarted`: all at once, nearly. */
const WAITING_JOINS_PER_SECOND = 200;

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

/**
 * The show's start with every fan already waiting (the studio's Start with a full house): all join the
 * live stream before its media is up, then Janus subscribes them all at once when it is.
 */
async function benchWaitingFans(party: Party, show: BenchShow): Promise<WaitingResult> {
  const base = party.server.baseURL;
  const { eventId } = await anotherShow(base, show);
  const publisher = await Publisher.start(base, show.creator.token, eventId);
  try {
    await party.pool.join(base, eventId, show.fans, WAITING_JOINS_PER_SECOND);
    const [stop, publishedAt] = [meter(party), Date.now()];
    await publisher.publish();
    const upAt = Date.now();
    await party.pool.allPlaying(PLAYING_TIMEOUT_MS);
    const cpu = stop();
    const counts = await party.pool.count(NO_WINDOW);
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

function joinRow({ added, seconds, cpu }: JoinResult) {
  return {
    'subscribers added': added,
    [`joined at ${JOINS_PER_SECOND}/s, all playing after s`]: Number(seconds.toFixed(1)),
    'Janus CPU': percent(janusTotal(cpu)),
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
    'Janus CPU': percent(janusTotal(cpu)),
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
        `Janus CPU ×${(janusTotal(last.cpu) / janusTotal(first.cpu)).toFixed(2)}, ` +
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
  const party = await startParty(1);
  try {
    const show = await createShow(party.server.baseURL, Math.max(...LEVELS));
    const { levels, joins } = await benchLevels(party, show, LEVELS);
    const waiting = await benchWaitingFans(party, show);
    printFanout(levels, joins, waiting);
    console.info(await complaints('fan-out', party.server, party.janus));
  } finally {
    await party.stop();
  }
}
