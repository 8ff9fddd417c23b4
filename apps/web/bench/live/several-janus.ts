import { anotherShow, createShow, type BenchShow } from './accounts';
import { percent } from './cpu';
import {
  benchLevels,
  carried,
  cpuRow,
  delivered,
  deliveryRow,
  janusTotal,
  JOINS_PER_SECOND,
  meter,
  othersOf,
  PLAYING_TIMEOUT_MS,
  playing,
  quantile,
  startParty,
  WINDOW_MS,
  WORKERS,
  type Carried,
  type CpuShares,
  type JoinResult,
  type LevelResult,
  type Party,
} from './fanout-measure';
import { NO_WINDOW, type SubscriberCount } from './fanout-protocol';
import { Publisher, type Republication } from './fanout-publisher';
import { complaints } from './services';

/** Viewers of the one show of each deployment compared (BENCH_SEVERAL_VIEWERS=30 for a quick try). */
const VIEWERS = Number(process.env.BENCH_SEVERAL_VIEWERS ?? 300);
const SPREAD_OVER = 3;
/**
 * JANUS_MAX_SUBSCRIBERS: one show's viewers a Janus takes before the server forwards the show to an
 * edge Janus. A third of the viewers, so the three carry them all (100 of 300).
 */
const MAX_SUBSCRIBERS = Math.ceil(VIEWERS / SPREAD_OVER);
/** The same show and viewers on one Janus, then spread over three: the ratio is the figure. */
const DEPLOYMENTS = [
  { label: '1 Janus', janus: 1, env: {} },
  {
    label: `${SPREAD_OVER} Janus, ${MAX_SUBSCRIBERS} a Janus`,
    janus: SPREAD_OVER,
    env: { JANUS_MAX_SUBSCRIBERS: String(MAX_SUBSCRIBERS) },
  },
] as const;
/**
 * Rounds of each deployment, alternating ABBA… (BENCH_SEVERAL_ROUNDS): a drift in the shared machine's
 * load weighs on both alike.
 */
const ROUNDS = Number(process.env.BENCH_SEVERAL_ROUNDS ?? 2);

/** Viewers of the show whose Janus is killed (BENCH_KILL_VIEWERS=5 for a quick try). */
const KILL_VIEWERS = Number(process.env.BENCH_KILL_VIEWERS ?? 50);
/** The show's Janus and the one it moves to. */
const KILL_JANUS = 2;
/** A viewer playing again later than this after the kill is counted as not back. */
const BACK_WITHIN_MS = 30_000;

interface Round {
  label: string;
  round: number;
  level: LevelResult;
  join: JoinResult;
}

/**
 * Both deployments up at once, each with its show's creator and VIEWERS fans; round after round, one
 * deployment then the other (reversed every other round) has its publisher and every fan join at a
 * fan's pace, then a steady window, then all leave.
 */
async function measureSpreads(): Promise<{ rounds: Round[]; complaints: string[] }> {
  const parties: Party[] = [];
  try {
    for (const { janus, env } of DEPLOYMENTS) parties.push(await startParty(janus, env));
    const shows: BenchShow[] = [];
    for (const { server } of parties) shows.push(await createShow(server.baseURL, VIEWERS));
    const rounds: Round[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const order = round % 2 === 1 ? [0, 1] : [1, 0];
      for (const index of order) {
        const [party, show, deployment] = [parties[index], shows[index], DEPLOYMENTS[index]];
        if (!party || !show || !deployment) throw new Error('a party, a show and a deployment');
        // A new event of the same creator and fans: each round starts as the first, from no stream at all.
        const event = round === 1 ? show : await anotherShow(party.server.baseURL, show);
        const {
          levels: [level],
          joins: [join],
        } = await benchLevels(party, event, [VIEWERS]);
        if (!level || !join) throw new Error('one level measured');
        rounds.push({ label: deployment.label, round, level, join });
      }
    }
    const complained = parties.map((party, index) =>
      complaints(DEPLOYMENTS[index]?.label ?? '', party.server, party.janus),
    );
    return { rounds, complaints: await Promise.all(complained) };
  } finally {
    for (const party of parties.reverse()) await party.stop();
  }
}

/** The several-Janus figures over the one-Janus figures, each the mean of its rounds. */
function ratios(title: string, one: LevelResult[], several: LevelResult[]): string {
  const mean = (levels: LevelResult[], of: (level: LevelResult) => number) =>
    levels.reduce((sum, level) => sum + of(level), 0) / levels.length;
  const ratio = (of: (level: LevelResult) => number) => `×${(mean(several, of) / mean(one, of)).toFixed(2)}`;
  return (
    `${SPREAD_OVER} Janus against 1, ${title}: playing ${ratio(playing)}, ` +
    `video delivered ${ratio((level) => delivered(level, 'main'))}, ` +
    `audio delivered ${ratio((level) => delivered(level, 'audio'))}, ` +
    `Janus CPU all together ${ratio(({ cpu }) => janusTotal(cpu))}, ` +
    `busiest Janus ${ratio(({ cpu }) => Math.max(...cpu.janus))}, ` +
    `server ${ratio(({ cpu }) => cpu.server)}, subscriber processes ${ratio(({ cpu }) => cpu.workers)}`
  );
}

function printSpread(rounds: Round[], complained: string[]): void {
  console.info(
    `\nOne show's ${VIEWERS} light werift viewers (in ${WORKERS} processes, joining at ${JOINS_PER_SECOND}/s) ` +
      `through one Janus (JANUS_URL), then through ${SPREAD_OVER} (JANUS_URLS, JANUS_MAX_SUBSCRIBERS=${MAX_SUBSCRIBERS}: ` +
      `past that the server forwards the show to an edge Janus); rounds of each, alternating: ${ROUNDS}; ` +
      `${WINDOW_MS / 1000} s windows, CPU in % of one core.`,
  );
  const named = ({ label, round }: Round) => ({ deployment: label, round });
  // eslint-disable-next-line no-console
  console.table(rounds.map((round) => ({ ...named(round), ...deliveryRow(round.level) })));
  // eslint-disable-next-line no-console
  console.table(
    rounds.map((round) => ({
      ...named(round),
      ...cpuRow(round.level),
      'joins until all playing s': Number(round.join.seconds.toFixed(1)),
    })),
  );
  console.info('Each Janus: its CPU over the window, and what the server says it carries (GET /metrics):');
  // eslint-disable-next-line no-console
  console.table(
    rounds.flatMap((round) =>
      round.level.cpu.janus.map((share, index) => ({
        ...named(round),
        Janus: `#${index + 1}`,
        CPU: percent(share),
        stagedoor_janus_subscribers: round.level.carried.subscribers[index],
        stagedoor_janus_shows: round.level.carried.shows[index],
      })),
    ),
  );
  const [one, several] = DEPLOYMENTS.map(({ label }) =>
    rounds.filter((round) => round.label === label).map(({ level }) => level),
  );
  if (!one || !several) return;
  for (const [index, level] of one.entries()) {
    const other = several[index];
    if (other) console.info(ratios(`round ${index + 1}`, [level], [other]));
  }
  console.info(ratios(`mean of ${ROUNDS} rounds`, one, several));
  for (const each of complained) console.info(each);
}

interface Kill {
  killedAt: number;
  before: Carried;
  after: Carried;
  counts: SubscriberCount[];
  republications: Republication[];
  /** From the kill until every viewer is back (or BACK_WITHIN_MS). */
  cpu: CpuShares;
  complaints: string;
}

/** A viewer answered an offer made after the kill, and got video on that connection. */
const backSince = (killedAt: number) => (count: SubscriberCount) =>
  count.latestOfferAt !== null && count.latestOfferAt >= killedAt && count.latestFirstPacketAt !== null;

/**
 * A show on one of KILL_JANUS Janus, KILL_VIEWERS viewers playing; its Janus is SIGKILLed. The server
 * asks the publisher to publish again, places the show on the other Janus and sends each viewer a
 * new offer; waits until every viewer plays on its new connection, or BACK_WITHIN_MS.
 */
async function measureKill(): Promise<Kill> {
  const party = await startParty(KILL_JANUS);
  try {
    const base = party.server.baseURL;
    const show = await createShow(base, KILL_VIEWERS);
    const publisher = await Publisher.start(base, show.creator.token, show.eventId);
    try {
      await publisher.publish();
      await party.pool.join(base, show.eventId, show.fans, JOINS_PER_SECOND);
      if (!(await party.pool.allPlaying(PLAYING_TIMEOUT_MS))) console.warn('not every viewer plays');
      const before = await carried(party);
      const victim = party.janus[before.shows.indexOf(1)];
      if (!victim)
        throw new Error(`no Janus carries the show: stagedoor_janus_shows ${before.shows.join(', ')}`);

      const [stop, killedAt] = [meter(party), Date.now()];
      await victim.kill();
      await party.pool.until((counts) => counts.every(backSince(killedAt)), BACK_WITHIN_MS);
      const cpu = stop();
      return {
        killedAt,
        cpu,
        before,
        after: await carried(party),
        counts: await party.pool.count(NO_WINDOW),
        republications: publisher.republications,
        complaints: await complaints('kill', party.server, party.janus),
      };
    } finally {
      await party.pool.leave();
      await publisher.stop();
    }
  } finally {
    await party.stop();
  }
}

function printKill(kill: Kill): void {
  const { killedAt, before, after, counts, republications, cpu } = kill;
  const since = (at: number | null) => (at === null ? [] : [at - killedAt]);
  const back = counts.filter(backSince(killedAt));
  const backMs = back.flatMap(({ latestFirstPacketAt }) => since(latestFirstPacketAt));
  const offerMs = counts.flatMap(({ latestOfferAt }) =>
    latestOfferAt !== null && latestOfferAt >= killedAt ? since(latestOfferAt) : [],
  );
  const spread = (values: number[]) =>
    values.length === 0 ? '–' : `${quantile(values, 0.5)} / ${Math.max(...values)}`;
  const where = ({ shows }: Carried) =>
    shows.flatMap((count, index) => (count > 0 ? [`#${index + 1}`] : [])).join(', ') || 'none';
  const [asked] = republications;
  console.info(
    `\nA Janus killed (SIGKILL) under a show: ${KILL_JANUS} Janus (JANUS_URLS), ${counts.length} light werift ` +
      'viewers playing; ms from the kill, median / slowest.',
  );
  // eslint-disable-next-line no-console
  console.table([
    {
      viewers: counts.length,
      'show on Janus': `${where(before)} → ${where(after)}`,
      'publisher asked again': asked ? asked.askedAt - killedAt : '–',
      'publisher up again': asked?.upAt ? asked.upAt - killedAt : '–',
      'got a new offer': `${offerMs.length}/${counts.length}`,
      'new offer': spread(offerMs),
      'playing again': spread(backMs),
      [`back within ${BACK_WITHIN_MS / 1000} s`]: `${backMs.filter((ms) => ms <= BACK_WITHIN_MS).length}/${counts.length}`,
    },
  ]);
  if (republications.length > 1)
    console.info(`The publisher was asked to publish again ${republications.length} times.`);
  console.info(
    `Meanwhile (CPU, % of one core): the surviving Janus ${percent(janusTotal(cpu))}, ` +
      `server ${percent(cpu.server)}, subscriber processes ${percent(cpu.workers)}, ` +
      `other processes ${percent(othersOf(cpu))}`,
  );
  console.info(kill.complaints);
}

/**
 * Issue 25: past one Janus. One show's viewers through one Janus against the same spread over three
 * (edges, JANUS_MAX_SUBSCRIBERS), measured in the same run; then how soon viewers play again when
 * their show's Janus dies. Inside scripts/in-netns.sh; the load comes from this process and its children.
 */
export async function benchSeveralJanus(): Promise<void> {
  const { rounds, complaints: complained } = await measureSpreads();
  printSpread(rounds, complained);
  printKill(await measureKill());
}
