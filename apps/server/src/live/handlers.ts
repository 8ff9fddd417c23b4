import type { Ack, LiveErrorCode, Refusal } from '@stagedoor/shared/realtime';
import type { z } from 'zod';
import { invalidTextMessage, invalidTextPath } from '../valid-text';
import type { Live, LiveSocket } from './context';

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
   * validation message or the LiveError's. A client that sent no callback gets no answer.
   */
  acked<Schema extends z.ZodType, Result extends object>(
    schema: Schema,
    run: (input: z.output<Schema>) => Promise<Result>,
  ): (payload: unknown, ack?: Ack<Result>) => void;
  /** A listener for an event without acknowledgement (signalling): an invalid payload is dropped. */
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
 * it (the viewer would stay counted for good).
 */
export function socketHandlers(live: Live, socket: LiveSocket): SocketHandlers {
  let queue = Promise.resolve();
  const inOrder = (work: () => Promise<void>) => {
    queue = queue.then(work);
    live.tasks.track(queue);
    // A failure is logged by the tracker; the next event still runs.
    queue = queue.catch(() => undefined);
  };

  const refusalOf = (error: unknown): Refusal => {
    if (error instanceof LiveError) return { success: false, code: error.code, error: error.message };
    live.deps.log.error({ err: error, socketId: socket.id }, 'live: event failed');
    return { success: false, code: 'INTERNAL', error: INTERNAL_ERROR_MESSAGE };
  };

  return {
    acked: (schema, run) => (payload, ack) =>
      inOrder(async () => {
        const answer = typeof ack === 'function' ? ack : () => undefined;
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
      }),

    unacked: (schema, run) => (payload) =>
      inOrder(async () => {
        const parsed = parsePayload(schema, payload);
        if (parsed.success) await run(parsed.data);
        else live.deps.log.debug({ socketId: socket.id, error: parsed.error }, 'live: invalid payload');
      }),

    afterPending: inOrder,
  };
}
