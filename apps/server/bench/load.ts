import autocannon from 'autocannon';

export const CONNECTIONS = 50;
const READ_SECONDS = 10;
const WARM_UP_SECONDS = 2;

export interface ReadFigures {
  requestsPerSecond: number;
  p50ms: number;
  p99ms: number;
  non2xx: number;
}

/** GETs `url` from 50 connections for 10 s (after a 2 s warm-up nobody counts). */
export async function readLoad(url: string, headers: Record<string, string> = {}): Promise<ReadFigures> {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: WARM_UP_SECONDS });
  const result = await autocannon({ url, headers, connections: CONNECTIONS, duration: READ_SECONDS });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50ms: result.latency.p50,
    p99ms: result.latency.p99,
    non2xx: result.non2xx,
  };
}

export interface DropFigures {
  /** Purchases answered 201, per second of the whole drop. */
  ordersPerSecond: number;
  created: number;
  refused: number;
  otherErrors: number;
  p99ms: number;
}

/**
 * A ticket drop: 50 buyers, one per connection, each buying one ticket per request, until `requests`
 * purchases were sent (more than the stock, so the drop ends sold out and the rest are refused).
 */
export async function dropLoad(
  url: string,
  body: unknown,
  headersOfBuyer: (connection: number) => Record<string, string>,
  requests: number,
): Promise<DropFigures> {
  let connection = 0;
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections: CONNECTIONS,
    amount: requests,
    setupClient: (client) => {
      client.setHeaders({ 'content-type': 'application/json', ...headersOfBuyer(connection) });
      connection += 1;
    },
  });
  const created = result['2xx'];
  return {
    ordersPerSecond: Math.round(created / result.duration),
    created,
    refused: result['4xx'],
    otherErrors: result['5xx'] + result.errors + result.timeouts,
    p99ms: result.latency.p99,
  };
}
