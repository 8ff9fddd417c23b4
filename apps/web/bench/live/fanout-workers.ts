import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchAccount } from './accounts';
import {
  NO_WINDOW,
  type FromWorker,
  type IndexWindow,
  type SubscriberCount,
  type ToWorker,
} from './fanout-protocol';
import { pollUntil } from './services';

const WORKER_ENTRY = fileURLToPath(new URL('./fanout-worker.ts', import.meta.url));
const REPLY_TIMEOUT_MS = 120_000;

interface Worker {
  process: ChildProcess;
  pid: number;
}

/** Sends `message` to the worker and answers its next reply of type `reply`. */
function ask<T extends FromWorker['type']>(
  worker: Worker,
  message: ToWorker,
  reply: T,
): Promise<Extract<FromWorker, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`subscriber process: no ${reply}`)), REPLY_TIMEOUT_MS);
    const listener = (answer: FromWorker) => {
      if (answer.type !== reply) return;
      clearTimeout(timer);
      worker.process.off('message', listener);
      resolve(answer as Extract<FromWorker, { type: T }>);
    };
    worker.process.on('message', listener);
    worker.process.send(message);
  });
}

function startWorker(): Worker {
  // fork passes on this process's execArgv: tsx's loader, so the worker runs as TypeScript too.
  const child = fork(WORKER_ENTRY, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  if (child.pid === undefined) throw new Error('could not start a subscriber process');
  return { process: child, pid: child.pid };
}

/**
 * The light subscribers, shared out over child processes (fanout-worker.ts): the load never comes
 * from the server it loads, and each process's CPU tells whether the clients kept up.
 */
export class SubscriberPool {
  private readonly workers: Worker[];

  constructor(processes: number) {
    this.workers = Array.from({ length: processes }, startWorker);
  }

  get pids(): number[] {
    return this.workers.map(({ pid }) => pid);
  }

  /** Joins one subscriber per fan, `joinsPerSecond` in all; answers once every joinStream is answered. */
  async join(base: string, eventId: number, fans: BenchAccount[], joinsPerSecond: number): Promise<void> {
    const { workers } = this;
    const replies = await Promise.all(
      workers.map((worker, index) => {
        const share = fans.filter((_, fan) => fan % workers.length === index);
        const accounts = share.map(({ token }) => ({ token }));
        const perProcess = joinsPerSecond / workers.length;
        return ask(
          worker,
          { type: 'join', baseURL: base, eventId, accounts, joinsPerSecond: perProcess },
          'joined',
        );
      }),
    );
    const failures = replies.flatMap((reply) => reply.failures);
    if (failures.length > 0) console.warn(`${failures.length} joins failed, e.g. ${failures[0]}`);
  }

  /** Waits until every subscriber got video; false if `timeoutMs` passed first. */
  allPlaying(timeoutMs: number): Promise<boolean> {
    return this.until((counts) => counts.every(({ playing }) => playing), timeoutMs);
  }

  /** Waits until the subscribers' counts satisfy `check`; false if `timeoutMs` passed first. */
  until(check: (counts: SubscriberCount[]) => boolean, timeoutMs: number): Promise<boolean> {
    return pollUntil(async () => check(await this.count(NO_WINDOW)), timeoutMs, 250);
  }

  /** Every subscriber's count of `window`, over all processes. */
  async count(window: IndexWindow): Promise<SubscriberCount[]> {
    const replies = await Promise.all(
      this.workers.map((worker) => ask(worker, { type: 'count', window }, 'counted')),
    );
    return replies.flatMap((reply) => reply.subscribers);
  }

  async leave(): Promise<void> {
    await Promise.all(this.workers.map((worker) => ask(worker, { type: 'leave' }, 'left')));
  }

  async close(): Promise<void> {
    await this.leave().catch(() => undefined);
    for (const { process } of this.workers) process.disconnect();
  }
}
