import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { FIRST_LOAD_BUDGET_BYTES, type FirstLoad } from '../../web/bench/first-load';
import { CONNECTIONS, type DropFigures, type ReadFigures } from './load';

const REPORT = fileURLToPath(new URL('../../../BENCHMARKS.md', import.meta.url));

export interface EngineFigures {
  engine: 'PGlite' | 'PostgreSQL';
  reads: Record<'list' | 'event', { app: ReadFigures; bare: ReadFigures; bytes: number }>;
  drop: { app: DropFigures; bare: DropFigures };
  stock: number;
  soldAfter: Record<'app' | 'bare', { sold: number; inOrders: number }>;
}

export interface FirstLoadFigures {
  brotli: FirstLoad[];
  gzip: FirstLoad[];
}

const ratio = (figure: number, ceiling: number) => `${(figure / ceiling).toFixed(2)}×`;
const KB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function commit(): string {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  try {
    return `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', '.', `:!${REPORT}`) ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

function engineSection(figures: EngineFigures): string {
  const { reads, drop, stock, soldAfter } = figures;
  const readRow = (label: string, read: EngineFigures['reads']['list']) =>
    `| ${label} (${KB(read.bytes)}) | ${read.app.requestsPerSecond} req/s, p50 ${read.app.p50ms} ms, ` +
    `p99 ${read.app.p99ms} ms, ${read.app.cpuMicrosPerAnswer} µs CPU/answer` +
    `${read.app.non2xx ? `, ${read.app.non2xx} non-2xx` : ''} | ` +
    `${read.bare.requestsPerSecond} req/s, p99 ${read.bare.p99ms} ms, ${read.bare.cpuMicrosPerAnswer} µs CPU/answer | ` +
    `**${ratio(read.app.requestsPerSecond, read.bare.requestsPerSecond)}** | ≥ 0.5×, p99 < 25 ms |`;
  const sold = (who: 'app' | 'bare') =>
    `${soldAfter[who].sold} sold, ${soldAfter[who].inOrders} in orders, ${drop[who].created} answered 201`;
  const target = figures.engine === 'PGlite' ? '≥ 0.4×' : '≥ 0.5×';
  return [
    `## ${figures.engine}`,
    '',
    '| Figure | Stagedoor | Ceiling (bare, same run) | Ratio | Target |',
    '|---|---|---|---|---|',
    readRow('`GET /api/events` (first page)', reads.list),
    readRow('`GET /api/events/{id}`', reads.event),
    `| Ticket drop, \`POST /api/orders\` (stock ${stock}) | ${drop.app.ordersPerSecond} orders/s, p99 ` +
      `${drop.app.p99ms} ms, ${drop.app.cpuMicrosPerOrder} µs CPU/order | ${drop.bare.ordersPerSecond} orders/s, ` +
      `p99 ${drop.bare.p99ms} ms, ${drop.bare.cpuMicrosPerOrder} µs CPU/order | ` +
      `**${ratio(drop.app.ordersPerSecond, drop.bare.ordersPerSecond)}** | ${target} |`,
    '',
    `Stock check: Stagedoor ${sold('app')}, ${drop.app.refused} refused, ${drop.app.otherErrors} errors; ` +
      `bare ${sold('bare')}, ${drop.bare.refused} refused, ${drop.bare.otherErrors} errors.`,
    '',
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

/** Prints the figures and writes them to BENCHMARKS.md at the repository's root. */
export async function writeReport(engines: EngineFigures[], firstLoad: FirstLoadFigures): Promise<void> {
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
    `- Load: autocannon in its own process, ${CONNECTIONS} connections; reads 10 s after a 2 s warm-up; ` +
      'the drop sends 500 more purchases than the stock, one ticket each, from 50 buyers.',
    '- CPU/answer: user and system time of the server process over the counted run, per answer (the ' +
      "database server's own, on PostgreSQL, is not in it): steadier than rates on a shared machine.",
    '- Ceilings: a bare Fastify server in its own process answering the same bytes from memory, and ' +
      'running the same purchase transaction (`placeOrder`) on the same engine with nothing around it.',
    '',
    ...engines.map(engineSection),
    firstLoadSection(firstLoad),
  ].join('\n');
  await writeFile(REPORT, text);
  console.info(`\n${text}`);
}
