import type { FastifyBaseLogger } from 'fastify';
import { createClient, type RedisClientType } from 'redis';

export type RedisClient = RedisClientType;

const MAX_RECONNECT_DELAY_MS = 5_000;

export interface RedisConnection {
  /** Commands: the stream registry, the socket.io adapter's publishing, the catalogue's change notices. */
  client: RedisClient;
  /** Subscriptions (the socket.io adapter's, the catalogue's): a subscribed connection runs no other command. */
  subscriber: RedisClient;
  close(): Promise<void>;
}

/** Connects to REDIS_URL; a server that cannot be reached fails the start instead of a live stream later. */
export async function connectRedis(url: string, log: FastifyBaseLogger): Promise<RedisConnection> {
  let connected = false;
  const client = createClient({
    url,
    socket: {
      // node-redis would retry the first connection forever, and the start would hang; once connected,
      // a lost connection is retried (every socket event waits for it meanwhile).
      reconnectStrategy: (retries, cause) =>
        connected ? Math.min(100 * 2 ** retries, MAX_RECONNECT_DELAY_MS) : cause,
    },
  });
  const subscriber = client.duplicate();
  // Without a listener, an 'error' event (a lost connection, say) would crash the process.
  client.on('error', (error: unknown) => log.error({ err: error }, 'redis: command connection error'));
  subscriber.on('error', (error: unknown) => log.error({ err: error }, 'redis: subscriber error'));
  // close() waits for the replies still due, which a lost connection queues until it is back: while
  // Redis is out of reach, a shutdown would hang forever. Then its commands can only be given up.
  const close = async () => {
    await Promise.allSettled(
      [client, subscriber].map((connection) => {
        if (connection.isReady) return connection.close();
        if (connection.isOpen) connection.destroy();
      }),
    );
  };
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
    connected = true;
  } catch (error) {
    await close();
    throw new Error(`Cannot connect to Redis (REDIS_URL): ${(error as Error).message}`, { cause: error });
  }
  return { client, subscriber, close };
}
