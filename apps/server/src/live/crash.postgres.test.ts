import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ticketHolder } from '../../test/factories';
import { ack, EVENT_TIMEOUT_MS, listen, LiveClients, liveShow, waitFor } from '../../test/live-clients';
import { startRedisServer } from '../../test/redis-server';
import { startServerProcess } from '../../test/server-process';
import { createTestApp, sameDeploymentAs } from '../../test/test-app';
import { SOCKETS_PER_ACCOUNT } from './limits';

/**
 * A real crash: instance C runs as `npm start` does, in a process of its own sharing PostgreSQL and
 * Redis with instance A, and is SIGKILLed, so nothing of its cleanup runs. (PostgreSQL only: PGlite
 * cannot be shared between processes. redis.test.ts simulates the crash in-process on both.)
 */
const GRACE_MS = 1_000;
const INSTANCE_TIMEOUT_MS = 900;
const NOTICED_WITHIN_MS = INSTANCE_TIMEOUT_MS + INSTANCE_TIMEOUT_MS / 3 + EVENT_TIMEOUT_MS;

const redis = await startRedisServer();
const env = {
  REDIS_URL: redis.url,
  STREAM_GRACE_MS: String(GRACE_MS),
  LIVE_INSTANCE_TIMEOUT_MS: String(INSTANCE_TIMEOUT_MS),
};
const a = await createTestApp(env);
const urlA = await listen(a);
const c = await startServerProcess({ ...sameDeploymentAs(a), ...env, LOG_LEVEL: 'warn' });
const clients = new LiveClients(urlA);
afterEach(() => clients.closeAll());
afterAll(async () => {
  await c.kill();
  await a.close();
  await redis.stop();
});

describe('an instance killed mid-show', () => {
  it('leaves the registry within the timeout: its viewers and sockets are forgotten, its show ends as lost', async () => {
    // On A: a show with a viewer on C. On C: a show with a viewer on A.
    const { event: showOnA, broadcaster: broadcasterOnA } = await liveShow(a, clients);
    const { fan: fanOnC } = await ticketHolder(a, { event: showOnA });
    const viewerOnC = await clients.connect(fanOnC, c.origin);
    expect(await ack(viewerOnC, 'joinStream', { eventId: showOnA.id })).toEqual({
      success: true,
      viewerCount: 1,
    });
    // The fan's other tabs, all on C: the account has no socket left to open.
    for (let n = 1; n < SOCKETS_PER_ACCOUNT; n += 1) await clients.connect(fanOnC, c.origin);
    await expect(clients.connect(fanOnC)).rejects.toThrow(/live connections open/);

    const { event: showOnC } = await liveShow(a, clients, c.origin);
    const viewerOnA = await clients.connect((await ticketHolder(a, { event: showOnC })).fan);
    expect(await ack(viewerOnA, 'joinStream', { eventId: showOnC.id })).toEqual({
      success: true,
      viewerCount: 1,
    });

    const viewerLeft = waitFor(broadcasterOnA, 'viewerLeft', NOTICED_WITHIN_MS);
    const count = waitFor(broadcasterOnA, 'viewerCountUpdate', NOTICED_WITHIN_MS);
    const ended = waitFor(viewerOnA, 'streamEnded', NOTICED_WITHIN_MS + GRACE_MS);
    const viewerOnCId = viewerOnC.id;
    const killedAt = Date.now();
    await c.kill();

    expect(await viewerLeft).toEqual({ viewerId: viewerOnCId });
    expect(await count).toEqual({ viewerCount: 0 });
    expect(await ended).toEqual({ reason: 'lost' });
    expect(Date.now() - killedAt).toBeLessThan(NOTICED_WITHIN_MS + GRACE_MS);
    expect(await a.live.isLive(showOnC.id)).toBe(false);
    expect(await a.live.isLive(showOnA.id)).toBe(true);
    // Nothing C counted for the fan is left: their tabs reconnect to A.
    for (let n = 0; n < SOCKETS_PER_ACCOUNT; n += 1) await clients.connect(fanOnC);
  });
});
