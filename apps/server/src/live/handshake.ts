import type { LiveErrorCode } from '@stagedoor/shared/live';
import { hasCode } from '../errors';
import { bearerToken, claimsOf, sessionFor } from '../modules/accounts/sessions';
import type { Live, LiveSocket } from './context';
import { SOCKETS_PER_ACCOUNT } from './limits';

/** What a refused client reads in its `connect_error`; the reason (expired, revoked…) is not its business. */
const AUTHENTICATION_ERROR_MESSAGE = 'Authentication error';
export const TOO_MANY_HANDSHAKES_MESSAGE = 'Too many connection attempts: wait a minute and try again';
export const TOO_MANY_CONNECTIONS_MESSAGE =
  `This account already has ${SOCKETS_PER_ACCOUNT} live connections open (tabs or devices): ` +
  'close one of them to connect here';

const INTERNAL_ERROR_MESSAGE = 'Internal server error';

/** A refusal the client reads in its `connect_error`: the message, and `data.code` when it has one. */
class HandshakeRefusal extends Error {
  readonly data: { code: LiveErrorCode } | undefined;

  constructor(code: LiveErrorCode | null, message: string) {
    super(message);
    this.data = code ? { code } : undefined;
  }
}

/**
 * The token a client sent: in `auth.token` (the browser's way, with or without `Bearer `), or in an
 * `Authorization: Bearer` header (clients that can set headers).
 */
function handshakeToken(handshake: LiveSocket['handshake']): string | undefined {
  const { token } = handshake.auth as { token?: unknown };
  if (typeof token === 'string' && token.trim()) return token.trim().replace(/^Bearer\s+/i, '');
  return bearerToken(handshake.headers.authorization);
}

/**
 * socket.io middleware: a connection is accepted only for a token HTTP requests would accept, and
 * while its account has fewer than SOCKETS_PER_ACCOUNT sockets open over the deployment (presence.ts).
 */
export function authenticateHandshake(live: Live) {
  return (socket: LiveSocket, next: (error?: Error) => void): void => {
    live.tasks.track(
      admit(live, socket).then(
        () => next(),
        (error: unknown) => {
          if (error instanceof HandshakeRefusal) return next(error);
          live.deps.log.error({ err: error }, 'live: handshake failed');
          next(new HandshakeRefusal('INTERNAL', INTERNAL_ERROR_MESSAGE));
        },
      ),
    );
  };
}

async function admit(live: Live, socket: LiveSocket): Promise<void> {
  const refused = (error: unknown) => {
    if (!hasCode('UNAUTHORIZED')(error)) live.deps.log.error({ err: error }, 'live: handshake failed');
    return new HandshakeRefusal(null, AUTHENTICATION_ERROR_MESSAGE);
  };
  // Counted before the database is asked: a loop of reconnections costs it nothing once refused.
  const claims = await claimsOf(live.deps, handshakeToken(socket.handshake)).catch((error: unknown) => {
    throw refused(error);
  });
  if ((await live.handshakeLimiter.take(String(claims.accountId))) !== null) {
    throw new HandshakeRefusal('RATE_LIMITED', TOO_MANY_HANDSHAKES_MESSAGE);
  }
  const session = await sessionFor(live.deps, claims).catch((error: unknown) => {
    throw refused(error);
  });
  const { id, role, firstName, lastName, nickname, profileImage } = session.account;
  if (!(await live.presence.admitSocket(id))) {
    throw new HandshakeRefusal('TOO_MANY_CONNECTIONS', TOO_MANY_CONNECTIONS_MESSAGE);
  }
  // Counted until its connection closes, whether it ever got connected or not (a client that went
  // away during the handshake is dropped by socket.io without a 'disconnect').
  let isCounted = true;
  const release = () => {
    if (!isCounted) return;
    isCounted = false;
    live.tasks.track(live.presence.releaseSocket(id));
  };
  if (socket.conn.readyState !== 'open') release();
  socket.conn.once('close', release);
  socket.once('disconnect', release);
  socket.data = {
    account: { id, role, firstName, lastName, nickname, profileImage },
    tokenId: session.tokenId,
    stream: null,
  };
}
