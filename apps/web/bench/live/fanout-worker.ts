/**
 * A subscriber process of the fan-out bench (forked by janus-fanout.ts): it holds a share of the light
 * viewers, so their CPU is measured apart from the bench's own and from the server they load.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { FromWorker, ToWorker } from './fanout-protocol';
import { Subscriber } from './fanout-subscriber';

const subscribers: Subscriber[] = [];

function send(message: FromWorker): void {
  process.send?.(message);
}

/** Joins one subscriber per account, `joinsPerSecond` apart, and waits for every join's answer. */
async function join(message: Extract<ToWorker, { type: 'join' }>): Promise<void> {
  const joins: Promise<void>[] = [];
  for (const { token } of message.accounts) {
    const subscriber = new Subscriber(message.baseURL, token);
    subscribers.push(subscriber);
    joins.push(subscriber.join(message.eventId));
    await sleep(1000 / message.joinsPerSecond);
  }
  const results = await Promise.allSettled(joins);
  const failures = results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
  send({ type: 'joined', joined: results.length - failures.length, failures });
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'join') void join(message);
  if (message.type === 'count') {
    send({ type: 'counted', subscribers: subscribers.map((subscriber) => subscriber.count(message.window)) });
  }
  if (message.type === 'leave') {
    const leaving = subscribers.splice(0);
    void Promise.allSettled(leaving.map((subscriber) => subscriber.leave())).then(() =>
      send({ type: 'left' }),
    );
  }
});
// The bench ends: nothing of this process's may keep it alive (werift's sockets would).
process.on('disconnect', () => process.exit(0));
