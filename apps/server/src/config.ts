import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isIP } from 'node:net';
import { PAYMENT_PROVIDERS } from '@stagedoor/shared/money';
import { z } from 'zod';
import { WEB_DIST_DIR } from './paths';

const IN_MEMORY_DATABASE = 'memory://';
const MAX_TIMER_MS = 2_147_483_647;
const JWT_SECRET_MIN_LENGTH = 32;
const JWT_SECRET_FILE = 'jwt-secret';
const METRICS_TOKEN_MIN_LENGTH = 16;

/** `192.0.2.7`, `10.0.0.0/8`, `2001:db8::/32`: what Fastify's trustProxy accepts. */
function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

const ZFlag = z
  .enum(['1', '0', 'true', 'false'], { error: 'must be 1, 0, true or false' })
  .transform((value) => value === '1' || value === 'true');

const ZIceServers = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be valid JSON' });
      return z.NEVER;
    }
  })
  // `[]` is allowed: browsers on one LAN (or one machine) reach each other without STUN (decision 0014).
  .pipe(
    z.array(
      z.object({
        urls: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]),
        username: z.string().optional(),
        credential: z.string().optional(),
      }),
      { error: 'must be a JSON array of RTCIceServer objects ({"urls": ...})' },
    ),
  );

/** A Janus WebSocket API address. */
const isJanusUrl = (url: string) => URL.canParse(url) && /^wss?:$/.test(new URL(url).protocol);

/** A comma-separated list whose every entry passes `isValid`, as an array of trimmed entries. */
const commaList = (isValid: (entry: string) => boolean, message: string) =>
  z.string().transform((list, ctx) => {
    const entries = list.split(',').map((entry) => entry.trim());
    if (entries.every(isValid)) return entries;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

const wholeNumber = (message: string) => z.string().regex(/^\d+$/, message).transform(Number);

const ZEnv = z
  .object({
    PORT: z
      .string()
      .regex(/^\d+$/, 'must be a port number')
      .transform(Number)
      .pipe(z.number().max(65535, 'must be a port number (0-65535)'))
      .default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('./data'),
    DATABASE_URL: z
      .string()
      .refine(
        (url) => url === IN_MEMORY_DATABASE || /^postgres(ql)?:\/\/.+/.test(url),
        `must be a postgres:// or postgresql:// URL (or ${IN_MEMORY_DATABASE} for a throwaway database)`,
      )
      .optional(),
    REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
    JWT_SECRET: z
      .string()
      .min(JWT_SECRET_MIN_LENGTH, `must be at least ${JWT_SECRET_MIN_LENGTH} characters`)
      .optional(),
    // Where the site is reached: every absolute link (mail, previews, payment returns) starts with it.
    PUBLIC_URL: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://stagedoor.example' })
      .transform((url) => url.replace(/\/+$/, ''))
      .optional(),
    PUBLIC_ORIGIN: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) origin such as https://stagedoor.example' })
      .transform((url) => new URL(url).origin)
      .optional(),
    ICE_SERVERS: ZIceServers.default([{ urls: 'stun:stun.l.google.com:19302' }]),
    // How long a live stream waits for its broadcaster to come back after their connection drops.
    STREAM_GRACE_MS: wholeNumber('must be a whole number of milliseconds')
      // Node runs a longer timer at once (after 1 ms): that would end every stream on the first drop.
      .pipe(z.number().max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms`))
      // Long enough to reopen a crashed browser and resume the show (decision 0018).
      .default(30_000),
    // With REDIS_URL: how long an instance may go without a heartbeat before the others take it for
    // crashed and forget its viewers and broadcasters (decision 0026). It beats every third of it.
    LIVE_INSTANCE_TIMEOUT_MS: wholeNumber('must be a whole number of milliseconds')
      .pipe(
        z
          .number()
          .min(300, 'must be at least 300 ms')
          .max(60_000, 'must be at most 60000 ms (an instance gone for longer keeps its viewers counted)'),
      )
      .default(15_000),
    // Login and registration requests one IP may make a minute (all four routes together).
    AUTH_RATE_LIMIT_PER_MINUTE: z
      .string()
      .regex(/^[1-9]\d*$/, 'must be a whole number of requests, at least 1')
      .transform(Number)
      .default(20),
    // Orders one account may place a minute: a buyer needs a few, a script taking a stock needs more.
    ORDER_RATE_LIMIT_PER_MINUTE: z
      .string()
      .regex(/^[1-9]\d*$/, 'must be a whole number of orders, at least 1')
      .transform(Number)
      .default(20),
    // The reverse proxies in front of the server (addresses or CIDR ranges, comma-separated): only their
    // X-Forwarded-For is believed, so a direct client cannot pose as another to the rate limits.
    TRUST_PROXY: commaList(
      isAddressOrRange,
      'must list proxy addresses or CIDR ranges, separated by commas',
    ).optional(),
    // Live media through a Janus VideoRoom (decision 0017); unset, browsers connect peer to peer.
    JANUS_URL: z
      .url({ protocol: /^wss?$/, error: "must be a ws:// or wss:// URL (Janus's WebSocket API)" })
      .optional(),
    // Several Janus servers (decision 0039): each show is placed on the least loaded one. JANUS_URL is
    // the one-server case; they share JANUS_API_SECRET and JANUS_ADMIN_KEY.
    JANUS_URLS: commaList(
      isJanusUrl,
      "must list ws:// or wss:// URLs (Janus's WebSocket API), separated by commas",
    ).optional(),
    JANUS_API_SECRET: z.string().optional(),
    JANUS_ADMIN_KEY: z.string().optional(),
    // How many viewers of one show a Janus serves: past it, the show is forwarded to another Janus (an
    // edge) and new viewers go there. 200 light viewers played at 100 % through one Janus on a 2-core
    // machine (docs/live.md); a bigger machine takes more.
    JANUS_MAX_SUBSCRIBERS: z
      .string()
      .regex(/^[1-9]\d*$/, 'must be a whole number of viewers, at least 1')
      .transform(Number)
      .default(200),
    // TURN for browsers behind strict NATs: coturn's `use-auth-secret` credentials, signed per account.
    TURN_URLS: commaList(
      (url) => /^turns?:\S+$/.test(url),
      'must list turn: or turns: URLs, separated by commas',
    ).optional(),
    TURN_SECRET: z.string().optional(),
    // How long TURN credentials open new relays (coturn checks them only then: a relay open lives on).
    // Short, so a logout ends them soon; the web app asks for fresh ones every 4 minutes.
    TURN_TTL_S: wholeNumber('must be a whole number of seconds')
      .pipe(z.number().min(300, 'must be at least 300 seconds'))
      .default(600),
    // Money (decision 0020): none = no card taken, orders complete at once; stripe = Stripe Checkout.
    PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS, { error: 'must be none or stripe' }).default('none'),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_/, 'must be a Stripe secret key (sk_...)')
      .optional(),
    // The platform endpoint's signing secret, and the Connect endpoint's (account.updated), comma-separated.
    STRIPE_WEBHOOK_SECRET: commaList(
      (secret) => /^whsec_\S+$/.test(secret),
      'must list webhook signing secrets (whsec_...), separated by commas',
    ).optional(),
    // Not for production: where the Stripe SDK sends its calls (a local stand-in in tests).
    STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
    // Stripe Checkout sessions last 30 minutes to 24 hours.
    CHECKOUT_HOLD_MINUTES: wholeNumber('must be a whole number of minutes')
      .pipe(z.number().min(30, 'must be at least 30 minutes').max(1440, 'must be at most 1440 minutes'))
      .default(30),
    // How long tickets that come back are held for the fan whose turn it is on the waitlist, before
    // they go to the next (DESIGN "Waitlist"). Buying them opens a checkout of at least CHECKOUT_HOLD_MINUTES.
    WAITLIST_HOLD_MINUTES: wholeNumber('must be a whole number of minutes')
      .pipe(z.number().min(1, 'must be at least 1 minute').max(1440, 'must be at most 1440 minutes'))
      .default(60),
    // How often each instance runs the settlement job (holds, releases, payouts, refunds).
    SETTLEMENT_INTERVAL_S: wholeNumber('must be a whole number of seconds')
      .pipe(
        z
          .number()
          .min(1, 'must be at least 1 second')
          .max(MAX_TIMER_MS / 1000, 'is too long'),
      )
      .default(60),
    // Mail (decision 0021): SMTP with credentials; unset, .eml files in DATA_DIR/outbox.
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    MAIL_FROM: z.string().min(3).default('Stagedoor <no-reply@stagedoor.localhost>'),
    // How often each instance looks for mail to send and reminders to queue.
    MAIL_INTERVAL_MS: wholeNumber('must be a whole number of milliseconds')
      .pipe(
        z
          .number()
          .min(100, 'must be at least 100 ms')
          .max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms`),
      )
      .default(2000),
    // How often each instance looks for a show's recording to process into its replay (one at a time).
    REPLAY_INTERVAL_MS: wholeNumber('must be a whole number of milliseconds')
      .pipe(
        z
          .number()
          .min(100, 'must be at least 100 ms')
          .max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms`),
      )
      .default(5000),
    // How long a replay's signed file address works (GET /events/{id}/replay answers it, with its
    // expiresAt): a player asks for a fresh one once it stops. Short bounds what a shared address gives
    // away; at least 10 s, so an address still works for the browser that asked for it.
    REPLAY_LINK_TTL_S: wholeNumber('must be a whole number of seconds')
      .pipe(
        z
          .number()
          .min(10, 'must be at least 10 seconds')
          .max(86_400, 'must be at most 86400 seconds (a day)'),
      )
      .default(1800),
    // How long one sample of a public show's viewers stands for (GET /events/{id}/analytics): each
    // instance looks twice in that time, and the first to write a show's sample of it wins.
    VIEWER_SAMPLE_INTERVAL_MS: wholeNumber('must be a whole number of milliseconds')
      .pipe(
        z
          .number()
          .min(100, 'must be at least 100 ms')
          .max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms`),
      )
      .default(60_000),
    // How long a public catalogue answer is served from memory (DESIGN "Fast"): the most ticketsLeft lags
    // a purchase. Edits, cancellations and deletions clear it at once, on every instance.
    CATALOGUE_CACHE_MS: wholeNumber('must be a whole number of milliseconds')
      .pipe(z.number().max(60_000, 'must be at most 60000 ms'))
      .default(1000),
    // How long a request may take to arrive whole, headers and body: a client trickling its body a byte
    // at a time would otherwise hold a connection, and its parser, for ever.
    REQUEST_TIMEOUT_MS: wholeNumber('must be a whole number of milliseconds')
      .pipe(
        z
          .number()
          .min(1000, 'must be at least 1000 ms')
          .max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms`),
      )
      .default(60_000),
    // Unset: demo data in development, never in production (the demo password is in the repository).
    SEED_DEMO: ZFlag.optional(),
    IMAGE_STORAGE: z.enum(['disk', 'database'], { error: 'must be disk or database' }).default('disk'),
    NODE_ENV: z
      .enum(['development', 'production', 'test'], { error: 'must be development, production or test' })
      .default('development'),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .optional(),
    // Set: GET /metrics answers Prometheus with this bearer token; unset: the route does not exist.
    METRICS_TOKEN: z
      .string()
      .regex(/^\S+$/, 'must not contain spaces')
      .min(METRICS_TOKEN_MIN_LENGTH, `must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`)
      .optional(),
    // On SIGTERM or SIGINT, how long requests under way may take to finish before they are cut off.
    SHUTDOWN_TIMEOUT_MS: wholeNumber('must be a whole number of milliseconds')
      .pipe(z.number().max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} ms`))
      .default(10_000),
    // Not for operators: lets a test serve a web build of its own through the production code path.
    WEB_DIST_DIR: z.string().default(WEB_DIST_DIR),
  })
  .refine((env) => !env.TURN_URLS || env.TURN_SECRET, {
    path: ['TURN_SECRET'],
    message: 'must be set with TURN_URLS (the static-auth-secret of the TURN server)',
  })
  .refine((env) => !env.TURN_SECRET || env.TURN_URLS, {
    path: ['TURN_URLS'],
    message: 'must be set with TURN_SECRET',
  })
  .refine((env) => env.PAYMENT_PROVIDER !== 'stripe' || env.STRIPE_SECRET_KEY, {
    path: ['STRIPE_SECRET_KEY'],
    message: 'must be set when PAYMENT_PROVIDER is stripe',
  })
  .refine((env) => env.PAYMENT_PROVIDER !== 'stripe' || env.STRIPE_WEBHOOK_SECRET, {
    path: ['STRIPE_WEBHOOK_SECRET'],
    message: 'must be set when PAYMENT_PROVIDER is stripe',
  })
  .refine((env) => env.JANUS_URL || env.JANUS_URLS || (!env.JANUS_API_SECRET && !env.JANUS_ADMIN_KEY), {
    path: ['JANUS_URL'],
    message: 'must be set when JANUS_API_SECRET or JANUS_ADMIN_KEY is',
  })
  .refine((env) => !(env.JANUS_URL && env.JANUS_URLS), {
    path: ['JANUS_URLS'],
    message: 'must not be set with JANUS_URL (which is the one-server case)',
  })
  .refine((env) => new Set(env.JANUS_URLS).size === (env.JANUS_URLS?.length ?? 0), {
    path: ['JANUS_URLS'],
    message: 'must not list one server twice',
  })
  // Unset, links would be made from the request's Host header, which any client writes: a stranger's
  // site in a page preview, a calendar file or the address Stripe sends a paying fan back to.
  .refine((env) => env.NODE_ENV !== 'production' || env.PUBLIC_URL, {
    path: ['PUBLIC_URL'],
    message:
      "must be set when NODE_ENV is production (the site's address, such as https://stagedoor.example)",
  });

export type IceServer = z.infer<typeof ZIceServers>[number];

/** How the server reaches its Janus servers, when shows go through them (one or more, same secrets). */
export interface JanusConfig {
  urls: string[];
  apiSecret: string | null;
  adminKey: string | null;
  /** Viewers of one show on one Janus, past which new ones go to an edge. */
  maxSubscribers: number;
}

/** The TURN servers browsers relay through, and the secret their credentials are signed with. */
export interface TurnConfig {
  urls: string[];
  secret: string;
  ttlSeconds: number;
}

/** Stripe's keys, and where its API is (Stripe's own unless a test points elsewhere). */
export interface StripeConfig {
  secretKey: string;
  /** Every endpoint's signing secret: an event signed with any of them is Stripe's. */
  webhookSecrets: string[];
  apiUrl: string | null;
}

export type DatabaseConfig = { driver: 'pglite'; dataDir: string } | { driver: 'postgres'; url: string };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  redisUrl: string | null;
  jwtSecret: Uint8Array;
  publicOrigin: string | null;
  /** PUBLIC_URL as set; unset, links are made from the request, or http://localhost:PORT (publicUrlOf). */
  publicUrl: string | null;
  iceServers: IceServer[];
  /** Set: every show goes through this Janus; null: browsers connect peer to peer. */
  janus: JanusConfig | null;
  /** Set: signed-in accounts get time-limited TURN credentials beside iceServers. */
  turn: TurnConfig | null;
  /** Set: fans pay through Stripe; null: no card is taken and orders complete at once. */
  stripe: StripeConfig | null;
  /** How long a pending order holds its tickets. */
  checkoutHoldMinutes: number;
  waitlistHoldMinutes: number;
  settlementIntervalMs: number;
  /** Set: mail goes out over SMTP; null: written as .eml files in DATA_DIR/outbox. */
  smtpUrl: string | null;
  mailFrom: string;
  mailIntervalMs: number;
  /** Recordings and replays: DATA_DIR/replays. */
  replaysDir: string;
  replayIntervalMs: number;
  /** How long a replay's signed file address works. */
  replayLinkTtlMs: number;
  /** One sample of a public show's viewers per this long. */
  viewerSampleIntervalMs: number;
  catalogueCacheMs: number;
  /** A request not received whole by then is answered 408 and its connection closed. */
  requestTimeoutMs: number;
  /** After a broadcaster drops, viewers get `streamEnded` only if they have not started again by then. */
  streamGraceMs: number;
  /** With Redis: an instance silent for this long is taken for crashed by the others. */
  liveInstanceTimeoutMs: number;
  /** Login and registration requests one IP may make a minute. */
  authRequestsPerIpPerMinute: number;
  /** Orders one account may place a minute. */
  ordersPerAccountPerMinute: number;
  /** Proxies whose X-Forwarded-For gives the client's address; none by default. */
  trustedProxies: string[];
  /** Set: Prometheus reads GET /metrics with it as a bearer token; null: there is no /metrics. */
  metricsToken: string | null;
  /** On SIGTERM or SIGINT, how long requests under way may take before their connections are closed. */
  shutdownTimeoutMs: number;
  seedDemo: boolean;
  imageStorage: 'disk' | 'database';
  nodeEnv: 'development' | 'production' | 'test';
  logLevel: string;
  webDistDir: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the environment; a bad value throws a ConfigError naming each variable and its problem. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // `FOO=` in a .env file means "not set", not "set to nothing".
  const defined = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = ZEnv.safeParse(defined);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `- ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);
  }
  const vars = parsed.data;
  const dataDir = path.resolve(vars.DATA_DIR);
  const janusUrls = vars.JANUS_URLS ?? (vars.JANUS_URL ? [vars.JANUS_URL] : []);

  return {
    port: vars.PORT,
    host: vars.HOST,
    dataDir,
    database: !vars.DATABASE_URL
      ? { driver: 'pglite', dataDir: path.join(dataDir, 'db') }
      : vars.DATABASE_URL === IN_MEMORY_DATABASE
        ? { driver: 'pglite', dataDir: IN_MEMORY_DATABASE }
        : { driver: 'postgres', url: vars.DATABASE_URL },
    redisUrl: vars.REDIS_URL ?? null,
    jwtSecret: new TextEncoder().encode(vars.JWT_SECRET ?? readOrCreateSecret(dataDir)),
    publicOrigin: vars.PUBLIC_ORIGIN ?? null,
    publicUrl: vars.PUBLIC_URL ?? null,
    iceServers: vars.ICE_SERVERS,
    janus:
      janusUrls.length > 0
        ? {
            urls: janusUrls,
            apiSecret: vars.JANUS_API_SECRET ?? null,
            adminKey: vars.JANUS_ADMIN_KEY ?? null,
            maxSubscribers: vars.JANUS_MAX_SUBSCRIBERS,
          }
        : null,
    turn:
      vars.TURN_URLS && vars.TURN_SECRET
        ? { urls: vars.TURN_URLS, secret: vars.TURN_SECRET, ttlSeconds: vars.TURN_TTL_S }
        : null,
    stripe:
      vars.PAYMENT_PROVIDER === 'stripe' && vars.STRIPE_SECRET_KEY && vars.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: vars.STRIPE_SECRET_KEY,
            webhookSecrets: vars.STRIPE_WEBHOOK_SECRET,
            apiUrl: vars.STRIPE_API_URL ?? null,
          }
        : null,
    checkoutHoldMinutes: vars.CHECKOUT_HOLD_MINUTES,
    waitlistHoldMinutes: vars.WAITLIST_HOLD_MINUTES,
    settlementIntervalMs: vars.SETTLEMENT_INTERVAL_S * 1000,
    smtpUrl: vars.SMTP_URL ?? null,
    mailFrom: vars.MAIL_FROM,
    mailIntervalMs: vars.MAIL_INTERVAL_MS,
    replaysDir: path.join(dataDir, 'replays'),
    replayIntervalMs: vars.REPLAY_INTERVAL_MS,
    replayLinkTtlMs: vars.REPLAY_LINK_TTL_S * 1000,
    viewerSampleIntervalMs: vars.VIEWER_SAMPLE_INTERVAL_MS,
    catalogueCacheMs: vars.CATALOGUE_CACHE_MS,
    requestTimeoutMs: vars.REQUEST_TIMEOUT_MS,
    streamGraceMs: vars.STREAM_GRACE_MS,
    liveInstanceTimeoutMs: vars.LIVE_INSTANCE_TIMEOUT_MS,
    authRequestsPerIpPerMinute: vars.AUTH_RATE_LIMIT_PER_MINUTE,
    ordersPerAccountPerMinute: vars.ORDER_RATE_LIMIT_PER_MINUTE,
    trustedProxies: vars.TRUST_PROXY ?? [],
    metricsToken: vars.METRICS_TOKEN ?? null,
    shutdownTimeoutMs: vars.SHUTDOWN_TIMEOUT_MS,
    seedDemo: vars.SEED_DEMO ?? vars.NODE_ENV !== 'production',
    imageStorage: vars.IMAGE_STORAGE,
    nodeEnv: vars.NODE_ENV,
    logLevel: vars.LOG_LEVEL ?? (vars.NODE_ENV === 'test' ? 'silent' : 'info'),
    webDistDir: path.resolve(vars.WEB_DIST_DIR),
  };
}

/** Generated once, so tokens survive restarts without anyone having to invent a secret. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, JWT_SECRET_FILE);
  mkdirSync(dataDir, { recursive: true });
  try {
    // 'wx' fails if the file exists, so two instances starting together keep the same secret.
    writeFileSync(file, randomBytes(48).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < JWT_SECRET_MIN_LENGTH) {
    throw new ConfigError(
      `Invalid configuration:\n- ${file}: the stored JWT secret must be at least ${JWT_SECRET_MIN_LENGTH} characters`,
    );
  }
  return secret;
}
