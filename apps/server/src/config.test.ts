import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { ConfigError, loadConfig } from './config';

const tempDataDir = () => mkdtemp(path.join(inject('tempRoot'), 'config-'));
const SECRET = 'x'.repeat(32);

function configError(env: Record<string, string>): string {
  try {
    loadConfig({ JWT_SECRET: SECRET, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected loadConfig to throw');
}

describe('loadConfig', () => {
  it('has working defaults', async () => {
    const dataDir = await tempDataDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config).toMatchObject({
      port: 3000,
      host: '0.0.0.0',
      dataDir,
      database: { driver: 'pglite', dataDir: path.join(dataDir, 'db') },
      redisUrl: null,
      publicOrigin: null,
      iceServers: [{ urls: 'stun:stun.l.google.com:19302' }],
      janus: null,
      turn: null,
      stripe: null,
      checkoutHoldMinutes: 30,
      settlementIntervalMs: 60_000,
      viewerSampleIntervalMs: 60_000,
      replayLinkTtlMs: 1_800_000,
      streamGraceMs: 30_000,
      liveInstanceTimeoutMs: 15_000,
      seedDemo: true,
      imageStorage: 'disk',
      nodeEnv: 'development',
      logLevel: 'info',
      metricsToken: null,
      shutdownTimeoutMs: 10_000,
      requestTimeoutMs: 60_000,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgres://app:secret@db.internal:5432/stagedoor',
      REDIS_URL: 'redis://cache:6379',
      JWT_SECRET: SECRET,
      PUBLIC_ORIGIN: 'https://stagedoor.example/some/path',
      PUBLIC_URL: 'https://tickets.stagedoor.example/',
      ICE_SERVERS: '[{"urls":["turn:turn.example:3478"],"username":"u","credential":"c"}]',
      STREAM_GRACE_MS: '2500',
      LIVE_INSTANCE_TIMEOUT_MS: '1200',
      AUTH_RATE_LIMIT_PER_MINUTE: '120',
      ORDER_RATE_LIMIT_PER_MINUTE: '5',
      TRUST_PROXY: '10.0.0.0/8, 192.0.2.7',
      JANUS_URL: 'ws://10.0.0.5:8188',
      JANUS_API_SECRET: 'api-secret',
      JANUS_ADMIN_KEY: 'admin-key',
      TURN_URLS: 'turn:turn.example:3478?transport=udp, turns:turn.example:5349',
      TURN_SECRET: 'turn-secret',
      TURN_TTL_S: '7200',
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_123',
      STRIPE_WEBHOOK_SECRET: 'whsec_platform, whsec_connect',
      CHECKOUT_HOLD_MINUTES: '45',
      SETTLEMENT_INTERVAL_S: '15',
      VIEWER_SAMPLE_INTERVAL_MS: '30000',
      REPLAY_LINK_TTL_S: '300',
      SEED_DEMO: '0',
      IMAGE_STORAGE: 'database',
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      METRICS_TOKEN: 'prometheus-scrape-token',
      SHUTDOWN_TIMEOUT_MS: '25000',
      REQUEST_TIMEOUT_MS: '30000',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      database: { driver: 'postgres', url: 'postgres://app:secret@db.internal:5432/stagedoor' },
      redisUrl: 'redis://cache:6379',
      publicOrigin: 'https://stagedoor.example',
      publicUrl: 'https://tickets.stagedoor.example',
      authRequestsPerIpPerMinute: 120,
      ordersPerAccountPerMinute: 5,
      trustedProxies: ['10.0.0.0/8', '192.0.2.7'],
      iceServers: [{ urls: ['turn:turn.example:3478'], username: 'u', credential: 'c' }],
      streamGraceMs: 2500,
      liveInstanceTimeoutMs: 1200,
      janus: {
        urls: ['ws://10.0.0.5:8188'],
        apiSecret: 'api-secret',
        adminKey: 'admin-key',
        maxSubscribers: 200,
      },
      turn: {
        urls: ['turn:turn.example:3478?transport=udp', 'turns:turn.example:5349'],
        secret: 'turn-secret',
        ttlSeconds: 7200,
      },
      stripe: { secretKey: 'sk_test_123', webhookSecrets: ['whsec_platform', 'whsec_connect'], apiUrl: null },
      checkoutHoldMinutes: 45,
      settlementIntervalMs: 15_000,
      viewerSampleIntervalMs: 30_000,
      replayLinkTtlMs: 300_000,
      seedDemo: false,
      imageStorage: 'database',
      nodeEnv: 'production',
      logLevel: 'warn',
      metricsToken: 'prometheus-scrape-token',
      shutdownTimeoutMs: 25_000,
      requestTimeoutMs: 30_000,
    });
    expect(new TextDecoder().decode(config.jwtSecret)).toBe(SECRET);
  });

  it('loads the demo accounts (their password is in the repository) only when asked, in production', () => {
    const seeds = (env: Record<string, string>) => loadConfig({ JWT_SECRET: SECRET, ...env }).seedDemo;
    const site = { PUBLIC_URL: 'https://stagedoor.example' };
    expect(seeds({ NODE_ENV: 'production', ...site })).toBe(false);
    expect(seeds({ NODE_ENV: 'production', SEED_DEMO: '1', ...site })).toBe(true);
    expect(seeds({ NODE_ENV: 'development' })).toBe(true);
    expect(seeds({ NODE_ENV: 'development', SEED_DEMO: '0' })).toBe(false);
  });

  it('reads JANUS_URLS as the Janus servers shows are spread over, sharing one secret and admin key', () => {
    const config = loadConfig({
      JWT_SECRET: SECRET,
      JANUS_URLS: 'ws://10.0.0.5:8188, wss://janus-2.internal:8989',
      JANUS_ADMIN_KEY: 'admin-key',
      JANUS_MAX_SUBSCRIBERS: '500',
    });
    expect(config.janus).toEqual({
      urls: ['ws://10.0.0.5:8188', 'wss://janus-2.internal:8989'],
      apiSecret: null,
      adminKey: 'admin-key',
      maxSubscribers: 500,
    });
    expect(loadConfig({ JWT_SECRET: SECRET }).janus).toBeNull();
  });

  it('accepts no ICE servers, for browsers on one network', () => {
    expect(loadConfig({ JWT_SECRET: SECRET, ICE_SERVERS: '[]' }).iceServers).toEqual([]);
  });

  it('is silent in tests unless told otherwise, and treats empty values as unset', () => {
    const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, PORT: '', DATABASE_URL: 'memory://' });
    expect(config.logLevel).toBe('silent');
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ driver: 'pglite', dataDir: 'memory://' });
  });

  it('names each bad variable and its problem', () => {
    const message = configError({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db/stagedoor',
      IMAGE_STORAGE: 's3',
      SEED_DEMO: 'yes',
    });
    expect(message).toContain('PORT: must be a port number');
    expect(message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(message).toContain('IMAGE_STORAGE: must be disk or database');
    expect(message).toContain('SEED_DEMO: must be 1, 0, true or false');
  });

  it.each([
    [{ PORT: '70000' }, 'PORT: must be a port number (0-65535)'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET: must be at least 32 characters'],
    [{ PUBLIC_ORIGIN: 'stagedoor.example' }, 'PUBLIC_ORIGIN: must be an http(s) origin'],
    [{ PUBLIC_URL: 'ftp://stagedoor.example' }, 'PUBLIC_URL: must be an http(s) URL'],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL: must be a redis:// or rediss:// URL'],
    [{ ICE_SERVERS: '[{"urls":' }, 'ICE_SERVERS: must be valid JSON'],
    [{ ICE_SERVERS: '{"urls":"stun:x"}' }, 'ICE_SERVERS: must be a JSON array of RTCIceServer objects'],
    [{ STREAM_GRACE_MS: '1.5s' }, 'STREAM_GRACE_MS: must be a whole number of milliseconds'],
    [{ JANUS_MAX_SUBSCRIBERS: '0' }, 'JANUS_MAX_SUBSCRIBERS: must be a whole number of viewers, at least 1'],
    [{ STREAM_GRACE_MS: '2147483648' }, 'STREAM_GRACE_MS: must be at most 2147483647 ms'],
    [{ LIVE_INSTANCE_TIMEOUT_MS: '15s' }, 'LIVE_INSTANCE_TIMEOUT_MS: must be a whole number of milliseconds'],
    [{ LIVE_INSTANCE_TIMEOUT_MS: '100' }, 'LIVE_INSTANCE_TIMEOUT_MS: must be at least 300 ms'],
    [{ LIVE_INSTANCE_TIMEOUT_MS: '120000' }, 'LIVE_INSTANCE_TIMEOUT_MS: must be at most 60000 ms'],
    [{ AUTH_RATE_LIMIT_PER_MINUTE: '0' }, 'AUTH_RATE_LIMIT_PER_MINUTE: must be a whole number of requests'],
    [{ TRUST_PROXY: '1' }, 'TRUST_PROXY: must list proxy addresses or CIDR ranges'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY: must list proxy addresses or CIDR ranges'],
    [{ JANUS_URL: 'http://janus:8088' }, "JANUS_URL: must be a ws:// or wss:// URL (Janus's WebSocket API)"],
    [{ JANUS_ADMIN_KEY: 'key' }, 'JANUS_URL: must be set when JANUS_API_SECRET or JANUS_ADMIN_KEY is'],
    [{ JANUS_URLS: 'ws://a:8188, http://b:8088' }, 'JANUS_URLS: must list ws:// or wss:// URLs'],
    [{ JANUS_URLS: 'ws://a:8188, ws://a:8188' }, 'JANUS_URLS: must not list one server twice'],
    [
      { JANUS_URL: 'ws://a:8188', JANUS_URLS: 'ws://a:8188,ws://b:8188' },
      'JANUS_URLS: must not be set with JANUS_URL',
    ],
    [{ TURN_URLS: 'stun:x:3478', TURN_SECRET: 's' }, 'TURN_URLS: must list turn: or turns: URLs'],
    [{ TURN_URLS: 'turn:x:3478' }, 'TURN_SECRET: must be set with TURN_URLS'],
    [{ TURN_SECRET: 's' }, 'TURN_URLS: must be set with TURN_SECRET'],
    [{ TURN_TTL_S: '60' }, 'TURN_TTL_S: must be at least 300 seconds'],
    [{ PAYMENT_PROVIDER: 'paypal' }, 'PAYMENT_PROVIDER: must be none or stripe'],
    [{ PAYMENT_PROVIDER: 'stripe', STRIPE_WEBHOOK_SECRET: 'whsec_x' }, 'STRIPE_SECRET_KEY: must be set when'],
    [
      { PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x' },
      'STRIPE_WEBHOOK_SECRET: must be set when',
    ],
    [{ STRIPE_SECRET_KEY: 'pk_test_x' }, 'STRIPE_SECRET_KEY: must be a Stripe secret key'],
    [{ STRIPE_WEBHOOK_SECRET: 'whsec_x,secret' }, 'STRIPE_WEBHOOK_SECRET: must list webhook signing secrets'],
    [{ CHECKOUT_HOLD_MINUTES: '10' }, 'CHECKOUT_HOLD_MINUTES: must be at least 30 minutes'],
    [{ CHECKOUT_HOLD_MINUTES: '2000' }, 'CHECKOUT_HOLD_MINUTES: must be at most 1440 minutes'],
    [{ SETTLEMENT_INTERVAL_S: '0' }, 'SETTLEMENT_INTERVAL_S: must be at least 1 second'],
    [{ VIEWER_SAMPLE_INTERVAL_MS: '50' }, 'VIEWER_SAMPLE_INTERVAL_MS: must be at least 100 ms'],
    [{ REPLAY_LINK_TTL_S: '30m' }, 'REPLAY_LINK_TTL_S: must be a whole number of seconds'],
    [{ REPLAY_LINK_TTL_S: '1.5' }, 'REPLAY_LINK_TTL_S: must be a whole number of seconds'],
    [{ REPLAY_LINK_TTL_S: '5' }, 'REPLAY_LINK_TTL_S: must be at least 10 seconds'],
    [{ REPLAY_LINK_TTL_S: '86401' }, 'REPLAY_LINK_TTL_S: must be at most 86400 seconds (a day)'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV: must be development, production or test'],
    [{ NODE_ENV: 'production' }, 'PUBLIC_URL: must be set when NODE_ENV is production'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL: must be one of'],
    [{ METRICS_TOKEN: 'secret' }, 'METRICS_TOKEN: must be at least 16 characters'],
    [{ METRICS_TOKEN: 'a token with spaces in it' }, 'METRICS_TOKEN: must not contain spaces'],
    [{ SHUTDOWN_TIMEOUT_MS: '10s' }, 'SHUTDOWN_TIMEOUT_MS: must be a whole number of milliseconds'],
    [{ REQUEST_TIMEOUT_MS: '500' }, 'REQUEST_TIMEOUT_MS: must be at least 1000 ms'],
    [
      { ORDER_RATE_LIMIT_PER_MINUTE: '0' },
      'ORDER_RATE_LIMIT_PER_MINUTE: must be a whole number of orders, at least 1',
    ],
    [{ REQUEST_TIMEOUT_MS: '1m' }, 'REQUEST_TIMEOUT_MS: must be a whole number of milliseconds'],
    [{ SHUTDOWN_TIMEOUT_MS: '2147483648' }, 'SHUTDOWN_TIMEOUT_MS: must be at most 2147483647 ms'],
  ])('rejects %o', (env, expected) => {
    expect(configError(env)).toContain(expected);
  });

  it('generates a JWT secret once, readable by the owner only, and keeps it', async () => {
    const dataDir = await tempDataDir();
    const first = loadConfig({ DATA_DIR: dataDir });
    const second = loadConfig({ DATA_DIR: dataDir });
    const file = path.join(dataDir, 'jwt-secret');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.jwtSecret).toEqual(first.jwtSecret);
    expect(new TextDecoder().decode(first.jwtSecret)).toBe((await readFile(file, 'utf8')).trim());
  });

  it('refuses a stored JWT secret that is too short', async () => {
    const dataDir = await tempDataDir();
    await writeFile(path.join(dataDir, 'jwt-secret'), 'tiny');
    expect(() => loadConfig({ DATA_DIR: dataDir })).toThrow(
      /jwt-secret: the stored JWT secret must be at least 32/,
    );
  });
});
