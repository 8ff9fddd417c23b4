import { hasCode } from '../errors';
import { accountForToken, bearerToken } from '../plugins/auth';
import type { Live, LiveSocket } from './context';

/** What a refused client reads in its `connect_error`; the reason (expired, revoked…) is not its business. */
export const AUTHENTICATION_ERROR_MESSAGE = 'Authentication error';

/**
 * The token a client sent: in `auth.token` (the browser's way, with or without `Bearer `), or in an
 * `Authorization: Bearer` header (clients that can set headers).
 */
function handshakeToken(handshake: LiveSocket['handshake']): string | undefined {
  const { token } = handshake.auth as { token?: unknown };
  if (typeof token === 'string' && token.trim()) return token.trim().replace(/^Bearer\s+/i, '');
  return bearerToken(handshake.headers.authorization);
}

/** socket.io middleware: a connection is accepted only for a token HTTP requests would accept. */
export function authenticateHandshake(live: Live) {
  return (socket: LiveSocket, next: (error?: Error) => void): void => {
    live.tasks.track(
      accountForToken(live.deps, handshakeToken(socket.handshake)).then(
        ({ id, role, firstName, lastName, profileImage }) => {
          socket.data = { account: { id, role, firstName, lastName, profileImage }, stream: null };
          next();
        },
        (error: unknown) => {
          if (!hasCode('UNAUTHORIZED')(error)) {
            live.deps.log.error({ err: error }, 'live: handshake failed');
          }
          next(new Error(AUTHENTICATION_ERROR_MESSAGE));
        },
      ),
    );
  };
}
