import { createClient } from 'redis';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { api } from '../../../test/factories';
import { startJanusServer } from '../../../test/janus-server';
import { startRedisServer } from '../../../test/redis-server';
import { createTestApp } from '../../../test/test-app';
import type { App } from '../../app';
import { READY_CHECK_TIMEOUT_MS } from './health.routes';

// Longer than a readiness check waits, so one check meets a Redis that answers nothing.
const PAUSE_MS = READY_CHECK_TIMEOUT_MS + 1_500;

const app = await createTestApp();
afterAll(() => app.close());

const ready = (target: App) => api(target, { method: 'GET', url: '/api/ready' });

describe('GET /api/ready', () => {
  it('answers ready when the database answers, and checks nothing the deployment does not use', async () => {
    const response = await ready(app);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ready', checks: { database: 'ok' } });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('checks Redis with REDIS_URL: 503 naming it while it does not answer, ready again once it does', async () => {
    const redis = await startRedisServer();
    onTestFinished(() => redis.stop());
    const clustered = await createTestApp({ REDIS_URL: redis.url });
    onTestFinished(() => clustered.close());

    const before = await ready(clustered);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ status: 'ready', checks: { database: 'ok', redis: 'ok' } });

    // A Redis that is connected but answers nothing, as an overloaded or hung one.
    const operator = createClient({ url: redis.url });
    await operator.connect();
    onTestFinished(() => operator.destroy());
    const pausedAt = Date.now();
    await operator.sendCommand(['CLIENT', 'PAUSE', String(PAUSE_MS), 'ALL']);
    const during = await ready(clustered);
    expect(during.statusCode).toBe(503);
    expect(during.json()).toEqual({
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'Not ready: Redis did not answer',
      checks: { database: 'ok', redis: 'unavailable' },
    });
    expect(Date.now() - pausedAt).toBeLessThan(PAUSE_MS);
    // Liveness is another question: the process is fine, and restarting it would not bring Redis back.
    expect((await api(clustered, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS - (Date.now() - pausedAt)));
    expect((await ready(clustered)).statusCode).toBe(200);
  });

  it('checks Janus with JANUS_URL, and answers 503 naming it once it stops answering', async () => {
    // No media flows here: loopback will do as Janus's ICE interface.
    const janus = await startJanusServer({ iceInterface: 'lo' });
    onTestFinished(() => janus.stop());
    const withJanus = await createTestApp({
      JANUS_URL: janus.url,
      JANUS_API_SECRET: janus.apiSecret,
      JANUS_ADMIN_KEY: janus.adminKey,
    });
    onTestFinished(() => withJanus.close());

    const before = await ready(withJanus);
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ status: 'ready', checks: { database: 'ok', janus: 'ok' } });

    await janus.stop();
    const after = await ready(withJanus);
    expect(after.statusCode).toBe(503);
    expect(after.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Not ready: Janus did not answer',
      checks: { database: 'ok', janus: 'unavailable' },
    });
  });
});
