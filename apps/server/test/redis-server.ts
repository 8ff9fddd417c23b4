import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createClient } from 'redis';
import { isRunning, terminate } from './child-process';
import { freePort } from './free-port';

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';
const READY_TIMEOUT_MS = 10_000;

interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/** A throwaway Redis server on 127.0.0.1 that keeps nothing on disk. */
export async function startRedisServer(): Promise<RedisServer> {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `redis-server not found at ${REDIS_SERVER}: the Redis tests need it ` +
        '(Debian: apt-get install redis-server; or set REDIS_SERVER to its path).',
    );
  }
  const port = await freePort();
  const server = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  const stop = () => terminate(server);
  try {
    await waitUntilReady(url, server);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

async function waitUntilReady(url: string, server: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!isRunning(server)) throw new Error(`redis-server exited (${server.exitCode ?? server.signalCode})`);
    const client = createClient({ url, socket: { reconnectStrategy: false } });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      await client.close();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
