import autocannon from 'autocannon';
import type { Running } from './processes';

/** The catalogue reads' connections; the drop has its own (DROP_IN_FLIGHT, in seed.ts). */
export const READ_CONNECTIONS = 50;
const READ_SECONDS = 10;
const WARM_UP_SECONDS = 2;

export interface ReadFigures {
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
  /** The server's CPU time per answer: what each costs it, whatever else the machine is doing. */
  cpuMicrosPerAnswer: number;
}

/** GETs `url` of `server` from READ_CONNECTIONS connections for 10 s (after a 2 s warm-up nobody counts). */
export async function readLoad(server: Running, url: string): Promise<ReadFigures> {
  await autocannon({ url, connections: READ_CONNECTIONS, duration: WARM_UP_SECONDS });
  const cpuBefore = server.cpuMicros();
  const result = await autocannon({ url, connections: READ_CONNECTIONS, duration: READ_SECONDS });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    non2xx: result.non2xx,
    cpuMicrosPerAnswer: Math.round((server.cpuMicros() - cpuBefore) / result.requests.total),
  };
}

export interface DropFigures {
  /** Purchases answered 201, per second of the whole drop. */
  ordersPerSecond: number;
  created: number;
  refused: number;
  /** 5xx answers, and requests that failed or got no answer (autocannon's errors, timeouts included). */
  otherErrors: number;
  /** Of otherErrors, the requests left unanswered past autocannon's timeout (10 s). */
  timeouts: number;
  p99ms: number;
  /** The server's CPU time per order sold (the database's, for PostgreSQL, is not counted). */
  cpuMicrosPerOrder: number;
}

/**
 * A ticket drop: `connections` buyers, one per connection (so `connections` purchases in flight), each
 * buying one ticket per request, until `requests` purchases were sent (more than the stock, so the drop
 * ends sold out and the rest are refused).
 */
export async function dropLoad(
  server: Running,
  url: string,
  /** Each connection's purchase. */
  bodyOf: (connection: number) => unknown,
  headersOfBuyer: (connection: number) => Record<string, string>,
  { requests, connections }: { requests: number; connections: number },
): Promise<DropFigures> {
  let connection = 0;
  const cpuBefore = server.cpuMicros();
  // Timed here, from the start to the last answer: autocannon notices the end of its `amount` on a
  // one-second tick, so its duration (and a timer around it) is whole seconds, which made one drop of
  // 6 to 7 s read as 166 or 142 orders/s from one run to the next.
  const startedAt = performance.now();
  let lastAnswerAt = startedAt;
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(bodyOf(0)),
    connections,
    amount: requests,
    setupClient: (client) => {
      client.setHeadersAndBody(
        { 'content-type': 'application/json', ...headersOfBuyer(connection) },
        JSON.stringify(bodyOf(connection)),
      );
      client.on('response', () => {
        lastAnswerAt = performance.now();
      });
      connection += 1;
    },
  });
  const seconds = (lastAnswerAt - startedAt) / 1000;
  const created = result['2xx'];
  return {
    ordersPerSecond: Math.round(created / seconds),
    created,
    refused: result['4xx'],
    // autocannon counts a timeout among its errors too.
    otherErrors: result['5xx'] + result.errors,
    timeouts: result.timeouts,
    p99ms: result.latency.p99,
    cpuMicrosPerOrder: Math.round((server.cpuMicros() - cpuBefore) / Math.max(created, 1)),
  };
}
