import type { Ack, LiveErrorCode, Refusal } from '@stagedoor/shared/live';
import type { z } from 'zod';
import { invalidTextMessage, invalidTextPath } from '../valid-text';
import type { Live, LiveSocket } from './context';
import { TOO_MANY_REQUESTS_MESSAGE, TOO_MANY_WAITING_MESSAGE, type EventKind } from './event-limits';
import { WAITING_EVENTS_PER_SOCKET } from './limits';

/** A refusal the client is told about in the acknowledgement's `code` and `error`. */
export class LiveError extends Error {
  override name = 'LiveError';

  constructor(
    readonly code: LiveErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const INTERNAL_ERROR_MESSAGE = 'Internal server error';

export interface SocketHandlers {
  /**
   * A listener for an event with an acknowledgement: validates the payload with `schema`, runs the
   * handler and answers `{success: true, ...result}`, or `{success: false, code, error}` with the first
   * validation message or the LiveError's (`RATE_LIMITED` when a limit turned it down). A client that
   * sent no callback gets no answer.
   */
  acked<Schema extends z.ZodType, Result extends object>(
    schema: Schema,
    run: (input: z.output<Schema>) => Promise<Result>,
  ): (payload: unknown, ack?: Ack<Result>) => void;
  /** A listener for an event without acknowledgement (signalling): an invalid or refused one is dropped. */
  unacked<Schema extends z.ZodType>(
    schema: Schema,
    run: (input: z.output<Schema>) => Promise<void>,
  ): (payload: unknown) => void;
  /** Runs work after everything the socket sent before, such as its cleanup when it disconnects. */
  afterPending(run: () => Promise<void>): void;
}

/** The payload as `schema` reads it, or the first problem: text holding characters no text may hold first. */
function parsePayload<Schema extends z.ZodType>(
  schema: Schema,
  payload: unknown,
): { success: true; data: z.output<Schema> } | { success: false; error: string } {
  const invalidPath = invalidTextPath(payload);
  if (invalidPath) return { success: false, error: invalidTextMessage(invalidPath.join('.') || 'payload') };
  const parsed = schema.safeParse(payload);
  if (parsed.success) return { success: true, data: parsed.data };
  return { success: false, error: parsed.error.issues[0]?.message ?? 'Invalid request' };
}

/**
 * The listeners of one socket. Its events are handled one after the other, in the order it sent them:
 * an ICE candidate must not overtake the answer it follows, nor a disconnect's cleanup the join before
 * it (the viewer would stay counted for good). An event waits only behind a bounded number of others,
 * and runs only within the socket's and its account's limits (decision 0026); what is refused costs
 * no more than its answer, and a socket that keeps flooding is disconnected.
 */
export function socketHandlers(live: Live, socket: LiveSocket): SocketHandlers {
  const { log } = live.deps;
  let queue = Promise.resolve();
  let waiting = 0;
  const inOrder = (work: () => Promise<void>) => {
    queue = queue.then(work);
    live.tasks.track(queue);
    // A failure is logged by the tracker; the next event still runs.
    queue = queue.catch(() => undefined);
  };

  const refusalOf = (error: unknown): Refusal => {
    if (error instanceof LiveError) return { success: false, code: error.code, error: error.message };
    log.error({ err: error, socketId: socket.id }, 'live: event failed');
    return { success: false, code: 'INTERNAL', error: INTERNAL_ERROR_MESSAGE };
  };

  let isDisconnecting = false;
  const countRefusal = () =>
    live.tasks.track(
      live.limits.isFlooding(socket).then((isFlooding) => {
        if (!isFlooding || isDisconnecting) return;
        isDisconnecting = true;
        log.warn(
          { socketId: socket.id, accountId: socket.data.account.id },
          'live: flooding socket disconnected',
        );
        socket.disconnect(true);
      }),
    );

  /**
   * Runs `run` in its turn if the event is let in, else `refuse` with the reason: at once when too
   * many events wait already, in its turn when a limit turns it down. The limits are asked on arrival,
   * so their answer (from Redis, for an account's) is usually there by the event's turn.
   */
  const admitted = (
    kind: EventKind,
    payload: unknown,
    run: () => Promise<void>,
    refuse: (message: string) => void,
  ) => {
    if (waiting >= WAITING_EVENTS_PER_SOCKET) {
      refuse(TOO_MANY_WAITING_MESSAGE);
      countRefusal();
      return;
    }
    waiting += 1;
    const admission = live.limits.admit(socket, kind, payload).catch((error: unknown) => {
      // A limit that cannot be counted does not stop the gateway: the event runs.
      log.error({ err: error, socketId: socket.id }, 'live: rate limit not counted');
      return true;
    });
    inOrder(async () => {
      try {
        if (await admission) await run();
        else {
          refuse(TOO_MANY_REQUESTS_MESSAGE);
          countRefusal();
        }
      } finally {
        waiting -= 1;
      }
    });
  };

  return {
    acked: (schema, run) => (payload, ack) => {
      const answer = typeof ack === 'function' ? ack : () => undefined;
      admitted(
        'request',
        payload,
        async () => {
          const parsed = parsePayload(schema, payload);
          if (!parsed.success) {
            answer({ success: false, code: 'INVALID_REQUEST', error: parsed.error });
            return;
          }
          try {
            answer({ success: true, ...(await run(parsed.data)) });
          } catch (error) {
            answer(refusalOf(error));
          }
        },
        (message) => answer({ success: false, code: 'RATE_LIMITED', error: message }),
      );
    },

    unacked: (schema, run) => (payload) =>
      admitted(
        'signal',
        payload,
        async () => {
          const parsed = parsePayload(schema, payload);
          if (parsed.success) await run(parsed.data);
          else log.debug({ socketId: socket.id, error: parsed.error }, 'live: invalid payload');
        },
        (message) => log.debug({ socketId: socket.id, message }, 'live: signal dropped by a limit'),
      ),

    // The socket's cleanup is never refused: it must run whatever the socket did.
    afterPending: inOrder,
  };
}
