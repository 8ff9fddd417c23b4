import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { AppError } from '../errors';

const METRICS_PATH = '/metrics';

/** The purchase route (orders.routes.ts under /api): a 201 there is a new order, a 200 a replay. */
const PLACE_ORDER = { method: 'POST', route: '/api/orders' };
/** Requests no route matched (unknown URLs) share one label value, whatever their path. */
const UNMATCHED_ROUTE = '(unmatched)';
// From a cached catalogue read (under a millisecond) to an image upload (seconds).
const LATENCY_BUCKETS_S = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Chat messages accepted on this process's sockets. Counted in chat.ts, which has no app at hand, so
 * it lives here and every app's registry reports it: Prometheus scrapes a process, and one count per
 * process is what it expects.
 */
export const chatMessagesSent = new Counter({
  name: 'stagedoor_chat_messages_total',
  help: 'Chat messages accepted from sockets connected to this instance.',
  registers: [],
});

/**
 * Prometheus metrics at GET /metrics (decision 0025), for a scraper holding METRICS_TOKEN; without the
 * variable the route answers 404 like any unknown one and nothing is measured. Per-instance figures
 * (requests, orders placed, chat messages, sockets, shows broadcast here) add up over instances; the
 * ones read from the database (holds, mail queue) are the deployment's and the same on every instance.
 * The gauges are read when Prometheus asks; what must be counted as it happens is counted in one hook,
 * but for the chat messages (one line in chat.ts).
 */
/** The deployment's figures the gauges read from the database, each by the module that keeps them: handed in by app.ts, plugins know no module. */
interface DeploymentCounts {
  /** Pending orders (modules/orders). */
  activeHolds: () => Promise<number>;
  /** Queued mail (modules/mail). */
  mailQueueDepth: () => Promise<number>;
  /** The money report's (modules/money/money-report.ts). */
  moneyCounts: () => Promise<{ differences: number; stuckRefunds: number; stuckPayouts: number }>;
  /** What recordings and replays take on disk (modules/replays). */
  replayDiskBytes: () => Promise<number>;
}

export async function setupMetrics(
  app: FastifyInstance,
  { activeHolds, mailQueueDepth, moneyCounts, replayDiskBytes }: DeploymentCounts,
): Promise<void> {
  const token = app.deps.config.metricsToken;
  if (!token) {
    // Registered all the same, to answer as an unknown API route does: a path with no route at all would
    // get the web app's page.
    app.get(METRICS_PATH, async (request) => {
      throw new AppError('NOT_FOUND', `Route ${request.method} ${METRICS_PATH} not found`);
    });
    return;
  }

  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registry.registerMetric(chatMessagesSent);
  const registers = [registry];

  const requestDuration = new Histogram({
    name: 'stagedoor_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: LATENCY_BUCKETS_S,
    registers,
  });
  const ordersPlaced = new Counter({
    name: 'stagedoor_orders_placed_total',
    help: 'Orders placed through this instance (POST /api/orders answered 201; replays are not counted).',
    registers,
  });

  const { log } = app.deps;
  /** Sets a gauge from a read made at scrape time; a failed read keeps the last value and is logged. */
  const gauge = (name: string, help: string, read: () => number | Promise<number>) =>
    new Gauge({
      name,
      help,
      registers,
      async collect() {
        try {
          this.set(await read());
        } catch (error) {
          log.warn({ err: error, metric: name }, 'metrics: reading a gauge failed');
        }
      },
    });
  gauge('stagedoor_connected_sockets', 'Sockets connected to this instance.', () =>
    app.live.connectedSockets(),
  );
  gauge('stagedoor_live_shows', 'Live shows whose broadcaster is connected to this instance.', () =>
    app.live.showsBroadcastHere(),
  );
  gauge(
    'stagedoor_active_holds',
    'Pending orders holding tickets while their buyers pay (the whole deployment).',
    activeHolds,
  );
  gauge(
    'stagedoor_money_differences',
    'Differences between the ledger and Stripe over the last week (npm run admin -- money-report names them).',
    async () => (await moneyCounts()).differences,
  );
  gauge(
    'stagedoor_refunds_stuck',
    'Refunds Stripe failed, or pending for more than two days: fans owed money (the whole deployment).',
    async () => (await moneyCounts()).stuckRefunds,
  );
  gauge(
    'stagedoor_payouts_stuck',
    'Payouts due for more than three days: creators owed money (the whole deployment).',
    async () => (await moneyCounts()).stuckPayouts,
  );
  gauge(
    'stagedoor_replay_disk_bytes',
    'Bytes of recordings and replays under DATA_DIR/replays (the whole deployment).',
    replayDiskBytes,
  );
  gauge(
    'stagedoor_mail_queue_depth',
    'Messages in the outbox waiting to be sent (the whole deployment).',
    mailQueueDepth,
  );

  type MediaServerFigures = Awaited<ReturnType<FastifyInstance['live']['mediaServers']>>[number];
  /** A gauge a Janus server, set from one read of them all at scrape time (none peer to peer). */
  const janusGauge = (name: string, help: string, read: (figures: MediaServerFigures) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['janus'] as const,
      registers,
      async collect() {
        try {
          const figures = await app.live.mediaServers();
          this.reset();
          for (const server of figures) this.set({ janus: server.server }, read(server));
        } catch (error) {
          log.warn({ err: error, metric: name }, 'metrics: reading a gauge failed');
        }
      },
    });
  janusGauge(
    'stagedoor_janus_up',
    'Whether this instance has a session with the Janus server (1) or not (0).',
    (server) => (server.up ? 1 : 0),
  );
  janusGauge(
    'stagedoor_janus_shows',
    'Live shows placed on the Janus server (the whole deployment).',
    (server) => server.shows,
  );
  janusGauge(
    'stagedoor_janus_subscribers',
    "Viewers subscribed to the Janus server's shows (the whole deployment).",
    (server) => server.subscribers,
  );
  janusGauge(
    'stagedoor_janus_bitrate_out_cap_bits',
    "What the Janus server may send, in bits per second: each subscriber at most its room's bitrate cap.",
    (server) => server.bitrateOutCap,
  );

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    requestDuration.observe({ method: request.method, route, status_code: status }, reply.elapsedTime / 1000);
    if (status === 201 && request.method === PLACE_ORDER.method && route === PLACE_ORDER.route) {
      ordersPlaced.inc();
    }
    done();
  });

  const expected = digest(`Bearer ${token}`);
  app.get(METRICS_PATH, async (request, reply) => {
    const given = digest(request.headers.authorization ?? '');
    if (!timingSafeEqual(given, expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('UNAUTHORIZED', 'A valid metrics token is required');
    }
    const text = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
}

/** Equal-length digests, so the comparison takes as long whatever the caller sent. */
const digest = (text: string) => createHash('sha256').update(text).digest();
