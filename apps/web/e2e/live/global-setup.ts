import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startCoturnServer } from '../../../server/test/coturn-server';
import { startJanusServer } from '../../../server/test/janus-server';
import { startPostgresServer } from '../../../server/test/postgres-server';
import { startRedisServer } from '../../../server/test/redis-server';
import { startBuiltServer } from '../support/server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Instance A and instance B of one deployment, both sending shows through the same Janus. */
    liveA: string;
    liveB: string;
    janus: { url: string; apiSecret: string; adminKey: string };
    turn: { url: string; secret: string };
    /** The environment of every instance, for a test that starts one more. */
    deployment: Record<string, string>;
  }
}

/** The address of the test namespace's veth end (scripts/in-netns.sh): Janus and coturn carry media there. */
const MEDIA_ADDRESS = '10.200.0.1';
const GRACE_MS = 8_000;

/**
 * A deployment of two production servers on one PostgreSQL and one Redis, with Janus for media and
 * coturn for relays, all throwaway. Runs inside scripts/in-netns.sh; any part that cannot start fails
 * the suite (nothing here is optional).
 */
export default async function setup(project: TestProject) {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch((error: unknown) => console.error(error));
  };
  try {
    const janus = await startJanusServer({ iceInterface: 'v0' });
    stops.push(janus.stop);
    const turn = await startCoturnServer(MEDIA_ADDRESS);
    stops.push(turn.stop);
    const redis = await startRedisServer();
    stops.push(redis.stop);
    const postgres = await startPostgresServer();
    stops.push(postgres.stop);
    // One DATA_DIR for every instance, as docs/live.md asks of a deployment that records: the instance
    // that processes a replay reads what the studio posted to another, and Janus's recordings. Short
    // and absolute (/tmp/stagedoor-live-XXXXXX): Janus writes there, as the same user.
    const dataDir = await mkdtemp(join(tmpdir(), 'stagedoor-live-'));
    stops.push(() => rm(dataDir, { recursive: true, force: true }));

    const deployment = {
      DATABASE_URL: postgres.url,
      REDIS_URL: redis.url,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      IMAGE_STORAGE: 'database',
      JANUS_URL: janus.url,
      JANUS_API_SECRET: janus.apiSecret,
      JANUS_ADMIN_KEY: janus.adminKey,
      TURN_URLS: turn.url,
      TURN_SECRET: turn.secret,
      // Enough to reload a studio and click Resume; short enough to watch a lost show end.
      STREAM_GRACE_MS: String(GRACE_MS),
      DATA_DIR: dataDir,
      // A show's replay is processed within half a second of its end: the journey waits for the work only.
      REPLAY_INTERVAL_MS: '500',
      // Replay addresses work 30 s, not 30 minutes: the journey sees the first one expire, and refused.
      REPLAY_LINK_TTL_S: '30',
    };
    // One after the other: the first runs the migrations.
    const a = await startBuiltServer(deployment);
    stops.push(a.stop);
    const b = await startBuiltServer(deployment);
    stops.push(b.stop);

    project.provide('liveA', a.baseURL);
    project.provide('liveB', b.baseURL);
    project.provide('janus', { url: janus.url, apiSecret: janus.apiSecret, adminKey: janus.adminKey });
    project.provide('turn', { url: turn.url, secret: turn.secret });
    project.provide('deployment', deployment);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}
