import { createHmac } from 'node:crypto';
import type { IceServer, TurnConfig } from '../config';

/**
 * Time-limited TURN credentials for one account, as coturn's `use-auth-secret` checks them (the TURN
 * REST API): the username is `<expiry in Unix seconds>:<accountId>`, the credential the base64
 * HMAC-SHA1 of the username under the shared secret. Nothing is stored; coturn recomputes it.
 */
export function turnServerFor(turn: TurnConfig, accountId: number, nowMs = Date.now()): IceServer {
  const username = `${Math.floor(nowMs / 1000) + turn.ttlSeconds}:${accountId}`;
  const credential = createHmac('sha1', turn.secret).update(username).digest('base64');
  return { urls: turn.urls, username, credential };
}
