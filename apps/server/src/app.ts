import { randomUUID } from 'node:crypto';
import type { DestinationStream } from 'pino';
import type { z } from 'zod';
import Fastify, { type FastifyInstance, type preValidationHookHandler } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { createDatabase, EMBEDDED_CHECKPOINT_MS } from './db/database';
import { deploymentName } from './db/deployment';
import { invalidTextFailure } from './errors';
import { serializeError } from './log-errors';
import { DevelopmentRequestLog, serializeRequest } from './request-log';
import type { Deps } from './deps';
import { setupLiveGateway, type LiveHandle } from './live/gateway';
import { liveRoutes } from './live/live.routes';
import { connectRedis } from './redis';
import { changeSettings } from './modules/accounts/accounts.service';
import { analyticsRoutes } from './modules/analytics/analytics.routes';
import { sampleViewers } from './modules/analytics/analytics.service';
import { authRoutes } from './modules/accounts/auth.routes';
import { attendeeRoutes } from './modules/attendees/attendees.routes';
import { creatorRoutes } from './modules/creators/creators.routes';
import { eventRoutes } from './modules/events/events.routes';
import { healthRoutes } from './modules/health/health.routes';
import { createImageStore } from './modules/images/image-store';
import { imageRoutes } from './modules/images/images.routes';
import { mailRoutes } from './modules/mail/mail.routes';
import { runMail } from './modules/orders/reminders';
import { createMailTransport } from './modules/mail/transport';
import { moneyRoutes } from './modules/money/money.routes';
import { moneyCounts } from './modules/money/money-report';
import { queuedMailCount } from './modules/mail/outbox';
import { countPendingOrders } from './modules/orders/orders.repo';
import { runSettlement } from './modules/money/settlement';
import { createStripePayments } from './modules/payments/stripe-payments';
import { stripeWebhookRoutes } from './modules/money/stripe-webhook.routes';
import { clockAt, offerTicketsBack, placeOrder, type PlaceOrder } from './modules/orders/order-lifecycle';
import { giveOrder, type GiveOrder } from './modules/orders/orders.repo';
import { orderRoutes } from './modules/orders/orders.routes';
import { previewOf } from './modules/previews/page-previews';
import { userRoutes } from './modules/accounts/users.routes';
import { setupAuth } from './modules/accounts/sessions';
import { setupCatalogue } from './plugins/catalogue';
import { JSON_BODY_LIMIT, setupJsonBodies } from './plugins/json-body';
import { setupMetrics } from './plugins/metrics';
import { hooksOf } from './plugins/route-hooks';
import { answerError, setupErrorHandler } from './plugins/error-handler';
import { setupMultipart } from './plugins/multipart';
import { setupRateLimit } from './plugins/rate-limit';
import { setupSecurity } from './plugins/security';
import { setupWebApp } from './plugins/web-app';
import { runEvery } from './repeating';
import { janusRecordingToWebm } from './modules/replays/janus-recording';
import { processDueReplay } from './modules/replays/processing';
import { claimDueReplay, replayDiskBytes, type ClaimReplay } from './modules/replays/replays.repo';
import { replayRoutes } from './modules/replays/replays.routes';
import { isRecording, janusRecordingStarted } from './modules/replays/replays.service';

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
    live: LiveHandle;
  }
}

// Node's defaults: how long the headers of a request may take, how often overdue requests are looked for.
const HEADERS_TIMEOUT_MS = 60_000;
const CHECK_INTERVAL_MS = 30_000;

// An id a proxy or client sent is kept (so logs can be joined across systems) if it looks like one.
const INCOMING_REQUEST_ID = /^[\w.:-]{1,128}$/;

export type App = FastifyInstance;

/**
 * Steps of the server a test may replace, and nothing else: production passes none, and every other
 * test builds the server exactly as production does.
 */
export interface TestSeams {
  /**
   * The purchase race test's control swaps in a read-then-write purchase, to show that its 200
   * concurrent buyers really do oversell an event when the conditional UPDATE is missing.
   */
  placeOrder?: PlaceOrder;
  /** The gift race test's control swaps in a read-then-write gift, to show ten at once give one order twice. */
  giveOrder?: GiveOrder;
  /** The replay race test's control swaps in a claim without a lock, to show two instances then process one show twice. */
  claimReplay?: ClaimReplay;
  /** Where the log goes instead of stdout: the test that no log line holds a secret reads it. */
  logStream?: DestinationStream;
}

const emptyBodyIfMissing: preValidationHookHandler = (request, reply, done) => {
  if (request.body === undefined) request.body = {};
  done();
};

/** The whole server, ready to listen: production and every test build it through here. */
export async function buildApp(config: Config, seams: TestSeams = {}): Promise<App> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: { err: serializeError, req: serializeRequest },
      ...(seams.logStream && { stream: seams.logStream }),
    },
    // In development each request is logged at debug, so the start banner stays in view (decision 0027).
    ...(config.nodeEnv === 'development' && { logController: new DevelopmentRequestLog() }),
    // Fastify bounds each step of closing (10 s by default), and one waits for requests in flight: it
    // must not cut them off before SHUTDOWN_TIMEOUT_MS does (shutdown.ts).
    pluginTimeout: 10_000 + config.shutdownTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.requestTimeoutMs),
      // Node looks for overdue requests every 30 s by default: a short timeout would run long.
      connectionsCheckingInterval: Math.min(CHECK_INTERVAL_MS, config.requestTimeoutMs / 4),
    },
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    // Every body a route reads whole (JSON, text) is cut off past this unless the route sets less.
    bodyLimit: JSON_BODY_LIMIT,
    requestIdHeader: false,
    frameworkErrors: answerError,
    // setupErrorHandler answers such requests in the product's error body.
    return503OnClosing: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();

  const database = await createDatabase(config.database, app.log);
  app.addHook('onClose', () => database.close());
  try {
    app.decorate('deps', {
      config,
      db: database.db,
      images: createImageStore(config, database.db),
      log: app.log,
      placeOrder: seams.placeOrder ?? placeOrder,
      giveOrder: seams.giveOrder ?? giveOrder,
      offerTicketsBack: (tx, eventId, now) => offerTicketsBack(tx, eventId, clockAt(config, now)),
      claimReplay: seams.claimReplay ?? claimDueReplay,
      payments: config.stripe ? createStripePayments(config.stripe, await deploymentName(database.db)) : null,
      sendMail: createMailTransport(config, app.log),
    });

    // Every schema-checked part of a request (body, query, params, headers) is valid text first.
    app.setValidatorCompiler<z.ZodType>((route) => {
      const validate = validatorCompiler(route);
      return (data) => {
        const invalidText = invalidTextFailure(data, route.httpPart);
        return invalidText ? { error: invalidText } : validate(data);
      };
    });
    app.setSerializerCompiler(serializerCompiler);
    // A missing body is validated as an empty one, so the answer lists each required field. Hooks are
    // added only to the routes they concern: a cached read runs through as few as possible.
    app.addHook('onRoute', (route) => {
      if (route.schema?.body) route.preValidation = [...hooksOf(route.preValidation), emptyBodyIfMissing];
    });
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      done();
    });

    setupErrorHandler(app);
    setupJsonBodies(app);
    setupSecurity(app, config.publicOrigin);
    // One connection for the whole server when instances share REDIS_URL: the rate limits, the catalogue
    // and the live gateway.
    const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : null;
    if (redis) app.addHook('onClose', () => redis.close());
    setupRateLimit(app, redis);
    await setupMultipart(app);
    setupAuth(app);
    await setupCatalogue(app, redis);
    await setupMetrics(app, {
      activeHolds: () => countPendingOrders(app.deps.db),
      mailQueueDepth: () => queuedMailCount(app.deps.db),
      moneyCounts: moneyCounts(app.deps),
      replayDiskBytes: () => replayDiskBytes(app.deps.db),
    });

    await app.register(
      async (api) => {
        await api.register(healthRoutes, { redis });
        await api.register(authRoutes);
        await api.register(userRoutes);
        await api.register(imageRoutes);
        await api.register(eventRoutes);
        await api.register(orderRoutes);
        await api.register(attendeeRoutes);
        await api.register(creatorRoutes);
        await api.register(liveRoutes);
        // The live gateway is set up after the routes: they reach it at request time.
        await api.register(replayRoutes, { isLive: (eventId) => app.live.isLive(eventId) });
        await api.register(analyticsRoutes);
        await api.register(moneyRoutes);
        await api.register(stripeWebhookRoutes);
        await api.register(mailRoutes, {
          turnRemindersOff: async (accountId) => {
            await changeSettings(app.deps.db, accountId, { remindersEnabled: false });
          },
        });
      },
      { prefix: '/api' },
    );
    await setupWebApp(app, config.webDistDir, previewOf);
    // Routes reach it at request time (a cancelled event's show ends), once it is up.
    app.decorate(
      'live',
      await setupLiveGateway(app, redis, {
        // Janus writes each show's recording beside the rest of its replay's files (replay-files.ts).
        dir: config.replaysDir,
        wanted: (eventId) => isRecording(app.deps, eventId),
        started: (eventId, key, startedAt) => janusRecordingStarted(app.deps, eventId, key, startedAt),
      }),
    );
    runEvery(app, 'settlement', config.settlementIntervalMs, (now) => runSettlement(app.deps, now));
    if (database.checkpoint) runEvery(app, 'checkpoint', EMBEDDED_CHECKPOINT_MS, database.checkpoint);
    runEvery(app, 'mail', config.mailIntervalMs, (now) => runMail(app.deps, now));
    // Closing the app kills a replay's tools mid-way; its lease runs out and another try starts over.
    const closing = new AbortController();
    app.addHook('onClose', () => closing.abort());
    runEvery(app, 'replays', config.replayIntervalMs, (now) =>
      processDueReplay(app.deps, { janusToWebm: janusRecordingToWebm, signal: closing.signal }, now),
    );
    // Twice an interval, so that a timer running late never leaves an interval without its sample.
    runEvery(app, 'viewer samples', config.viewerSampleIntervalMs / 2, (now) =>
      sampleViewers(app.deps, app.live.publicShows, now),
    );

    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
