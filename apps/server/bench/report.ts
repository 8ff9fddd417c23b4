import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { FIRST_LOAD_BUDGET_BYTES, type FirstLoad } from '../../web/bench/first-load';
import {
  DISTINCT_URLS,
  FLOOD_CLIENTS,
  FLOOD_SECONDS,
  KILL_AFTER_SECONDS,
  MIXED,
  type HealthFigures,
  type HostileFigures,
  type MixedFigures,
} from './hostile';
import { READ_CONNECTIONS, type DropFigures, type ReadFigures } from './load';
import { DROP_ATTEMPTS, DROP_IN_FLIGHT, STOCK, TIERED_DROP } from './seed';

const REPORT = fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url));

export type Engine = 'PGlite' | 'PostgreSQL';

/** What Stagedoor's drop should reach of the bare purchase's orders/s (PAYMENT_PROVIDER=none). */
const DROP_TARGET: Record<Engine, number> = { PGlite: 0.3, PostgreSQL: 0.5 };

export interface EngineFigures {
  engine: Engine;
  /** Absent when the run skipped them (BENCH_ONLY). */
  reads?: Record<'list' | 'event', { app: ReadFigures; bare: ReadFigures; bytes: number }>;
  drop?: {
    app: DropFigures;
    bare: DropFigures;
    /** Stagedoor's drop over two types with a code (TIERED_DROP), after the single-price one. */
    tiered: DropFigures;
    soldAfter: Record<'app' | 'bare' | 'tiered', { sold: number; inOrders: number; coded: number }>;
  };
}

export interface FirstLoadFigures {
  brotli: FirstLoad[];
  gzip: FirstLoad[];
}

const ratio = (figure: number, ceiling: number) => `${(figure / ceiling).toFixed(2)}×`;
const KB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;
const count = (n: number) => n.toLocaleString('en-US');

function commit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', '.', `:!${REPORT}`) ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

function engineSection({ engine, reads, drop }: EngineFigures): string {
  const readRow = (label: string, read: NonNullable<EngineFigures['reads']>['list']) =>
    `| ${label} (${KB(read.bytes)}) | ${read.app.requestsPerSecond} req/s, p50 ${read.app.p50ms} ms, ` +
    `p99 ${read.app.p99ms} ms, ${read.app.cpuMicrosPerAnswer} µs CPU/answer` +
    `${read.app.non2xx ? `, ${read.app.non2xx} non-2xx` : ''} | ` +
    `${read.bare.requestsPerSecond} req/s, p99 ${read.bare.p99ms} ms, ${read.bare.cpuMicrosPerAnswer} µs CPU/answer | ` +
    `**${ratio(read.app.requestsPerSecond, read.bare.requestsPerSecond)}** | ≥ 0.5×, p99 < 25 ms |`;
  const dropFigures = (figures: DropFigures) =>
    `${figures.ordersPerSecond} orders/s, p99 ${figures.p99ms} ms, ${figures.cpuMicrosPerOrder} µs CPU/order`;
  const rows = [
    ...(reads
      ? [
          readRow('`GET /api/events` (first page)', reads.list),
          readRow('`GET /api/events/{id}`', reads.event),
        ]
      : []),
    ...(drop
      ? [
          `| Ticket drop, \`POST /api/orders\` (${count(STOCK)} tickets, ${count(DROP_ATTEMPTS)} attempts, ` +
            `${DROP_IN_FLIGHT} in flight) | ${dropFigures(drop.app)} | bare purchase: ${dropFigures(drop.bare)} | ` +
            `**${ratio(drop.app.ordersPerSecond, drop.bare.ordersPerSecond)}** | ≥ ${DROP_TARGET[engine]}× |`,
          `| The same drop over two types, half the buyers with a code for ${count(TIERED_DROP.codeUses)} uses | ` +
            `${dropFigures(drop.tiered)} | single-price drop: ${dropFigures(drop.app)} | ` +
            `**${ratio(drop.tiered.ordersPerSecond, drop.app.ordersPerSecond)}** | |`,
        ]
      : []),
  ];
  const stockCheck = (who: 'app' | 'bare' | 'tiered') =>
    drop
      ? `${drop.soldAfter[who].sold} sold, ${drop.soldAfter[who].inOrders} in orders` +
        (who === 'tiered' ? ` (${drop.soldAfter[who].coded} with the code)` : '') +
        ', ' +
        `${drop[who].created} answered 201, ${drop[who].refused} refused, ${drop[who].otherErrors} errors` +
        (drop[who].timeouts ? ` (${drop[who].timeouts} unanswered within 10 s)` : '')
      : '';
  return [
    `## ${engine}`,
    '',
    '| Figure | Stagedoor | Ceiling (bare, same run) | Ratio | Target |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    ...(drop
      ? [
          `Stock check: Stagedoor ${stockCheck('app')}; bare purchase ${stockCheck('bare')}; ` +
            `two types with a code ${stockCheck('tiered')}.`,
          '',
        ]
      : []),
  ].join('\n');
}

function firstLoadSection({ brotli, gzip }: FirstLoadFigures): string {
  const rows = brotli.map((load, n) => {
    const gzipped = gzip[n];
    return (
      `| \`${load.path}\` | ${load.scripts} | ${KB(load.jsGzipBytes)} | ${KB(load.jsWireBytes)} ` +
      `(${load.encodings.join(', ')}) | ${gzipped ? `${KB(gzipped.jsWireBytes)} (${gzipped.encodings.join(', ')})` : '–'} | ` +
      `${KB(FIRST_LOAD_BUDGET_BYTES)} | **${ratio(load.jsGzipBytes, FIRST_LOAD_BUDGET_BYTES)}** |`
    );
  });
  return [
    '## First load',
    '',
    'Every script headless Chromium fetches to show the page, signed out, empty cache.',
    '',
    '| Page | Scripts | JavaScript, gzipped | On the wire (Chromium) | On the wire (gzip only) | Budget | Of budget |',
    '|---|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

function mixedRow(label: string, mixed: MixedFigures, baseline: HealthFigures): string {
  const reads = Object.values(mixed.reads).reduce((total, n) => total + n, 0);
  const failed = reads - (mixed.reads['200'] ?? 0);
  const { chat } = mixed;
  const purchases = mixed.purchases
    ? `; purchases: ${Object.entries(mixed.purchases.answered)
        .map(([status, n]) => `${n} × ${status}`)
        .join(', ')}`
    : '';
  return (
    `| ${label}: ${chat.sockets} sockets in one chat, ${MIXED.messagesPerSecond} messages/s, ` +
    `${MIXED.readers} connections reading \`GET /api/events\`, ${MIXED.seconds} s | ` +
    `health ${healthText(mixed.health)}; reads ${count(reads)}, **${count(failed)} failed**; ` +
    `chat ${count(chat.accepted)} of ${count(chat.sent)} accepted, ${count(chat.delivered)} of ` +
    `${count(chat.expected)} delivered, ${chat.disconnected} sockets dropped${purchases} | ` +
    `${healthText(baseline)} (idle) | p95 < 500 ms, no read failing |`
  );
}

const healthText = (figures: HealthFigures) =>
  `p50 ${figures.p50ms} ms, p95 ${figures.p95ms} ms, max ${figures.maxMs} ms (${figures.answers} answers)`;

function hostileSection({ rss, searches, deepJson, socketFlood, mixed, recovery }: HostileFigures): string {
  const health = healthText;
  const statuses = Object.entries(deepJson.statuses)
    .map(([status, n]) => `${count(n)} × ${status}`)
    .join(', ');
  return [
    '## Under hostile traffic (PGlite, the default single instance)',
    '',
    "Issue 21's probes from outside, each next to its baseline in the same run; targets for this 2-core machine.",
    '',
    '| Probe | Under attack | Baseline | Target |',
    '|---|---|---|---|',
    `| RSS over ${count(DISTINCT_URLS)} distinct catalogue URLs (junk fields, pages, searches, 400 events of ` +
      `5,000 characters) | ${rss.afterMB.toFixed(0)} MB, **+${(rss.afterMB - rss.beforeMB).toFixed(0)} MB** | ` +
      `${rss.beforeMB.toFixed(0)} MB before | growth < 200 MB |`,
    ...searches.map(
      (search) =>
        `| Search \`${search.query.replaceAll('|', '\\|')}\` over 400 long events | **${search.ms} ms** ` +
        `(${search.status}) | – | < 1 s |`,
    ),
    `| Health during a deep-JSON flood (${FLOOD_CLIENTS} clients, 1 MB nested 500,000 deep, ` +
      `\`POST /api/auth/logout\`, ${FLOOD_SECONDS} s; ${statuses}) | ${health(deepJson.flood)} | ` +
      `${health(deepJson.baseline)} | p95 < 300 ms |`,
    `| Health during a socket flood (one account, 10 sockets each sending bursts of 5,000 chat messages a ` +
      `second without waiting, opening again when cut, ${FLOOD_SECONDS} s; ${count(socketFlood.attack.sent)} sent, ` +
      `${socketFlood.attack.cut} sockets cut, ${socketFlood.attack.refusedHandshakes} handshakes refused) | ` +
      `${health(socketFlood.health)} | ${health(deepJson.baseline)} | p95 < 300 ms |`,
    mixedRow('Mixed load without purchases', mixed.withoutPurchases, deepJson.baseline),
    mixedRow('Mixed load with a purchase a second', mixed.withPurchases, deepJson.baseline),
    `| From kill -9 to health answered, after ${KILL_AFTER_SECONDS} s of purchases without pause ` +
      `(${count(recovery.answeredBeforeKill)} answered 201 before the kill; ` +
      `**${count(recovery.soldAfterRestart)} sold** once restarted) | **${(recovery.afterKillMs / 1000).toFixed(1)} s** | ` +
      `${(recovery.afterStopMs / 1000).toFixed(1)} s after a clean stop | every 201 kept |`,
    '',
  ].join('\n');
}

/**
 * Prints the figures and, for a whole run (`toFile`), writes them to BENCHMARKS.md at the repository's
 * root; a partial or profiled one (BENCH_ONLY, BENCH_ENGINES, BENCH_PROFILE) leaves the file as it is.
 */
export async function writeReport(
  engines: EngineFigures[],
  firstLoad: FirstLoadFigures | undefined,
  hostile: HostileFigures | undefined,
  { toFile }: { toFile: boolean },
): Promise<void> {
  const cpus = os.cpus();
  const text = [
    '# Benchmarks',
    '',
    'Written by `npm run bench`; every ceiling is measured in the same run, on the same machine.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GB of memory, ` +
      `${os.type()} ${os.release()}, Node ${process.version}`,
    `- Commit: ${commit()}`,
    `- Load: autocannon in its own process. Catalogue reads: ${READ_CONNECTIONS} connections, 10 s after a ` +
      `2 s warm-up. Ticket drop: ${count(STOCK)} tickets, ${count(DROP_ATTEMPTS)} purchase attempts of one ` +
      `ticket each, ${DROP_IN_FLIGHT} in flight (${DROP_IN_FLIGHT} connections, one buyer each: no per-buyer ` +
      'or per-account rate limit is reached); Stagedoor with `PAYMENT_PROVIDER=none`, the default, so every ' +
      'order completes at once.',
    '- CPU/answer, CPU/order: user and system time of the server process over the counted run, per answer ' +
      "or per order sold (the database server's own, on PostgreSQL, is not in it): steadier than rates on a " +
      'shared machine.',
    '- Ceilings: a bare Fastify server in its own process. For the reads, it answers the same bytes from ' +
      'memory. For the drop, the bare two-statement purchase: one transaction of one conditional `UPDATE` of ' +
      'the stock (`sold + 1 <= max_tickets`) and one `INSERT` of the order, straight on the same engine, with ' +
      'no HTTP authentication, validation, per-buyer limit, ledger or mail.',
    '',
    ...engines.map(engineSection),
    ...(firstLoad ? [firstLoadSection(firstLoad)] : []),
    ...(hostile ? [hostileSection(hostile)] : []),
  ].join('\n');
  if (toFile) await writeFile(REPORT, text);
  console.info(`\n${text}`);
  if (!toFile) {
    console.info(
      'A partial or profiled run (BENCH_ONLY, BENCH_ENGINES, BENCH_PROFILE): BENCHMARKS.md is left as it is.',
    );
  }
}
