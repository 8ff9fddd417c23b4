import type { Role } from '@stagedoor/shared/accounts';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AccountRow } from './accounts.tables';
import type { Deps } from '../../deps';
import { AppError, hasCode } from '../../errors';
import { findAccountForToken } from './accounts.repo';
import { SESSION_MESSAGES, verifyAccessToken, type TokenClaims } from './tokens';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by requireAuth(); read it through signedInAccount(). */
    account: AccountRow | null;
  }
}

const ROLE_ONLY_MESSAGE: Record<Role, string> = {
  creator: 'Only creator accounts can do this',
  user: 'Only spectator accounts can do this',
};

export function setupAuth(app: FastifyInstance): void {
  app.decorateRequest('account', null);
}

/** The token of an `Authorization: Bearer <token>` value, or undefined for any other value. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
}

/**
 * The account a token stands for and the token's id (its `jti`), or a 401 whose message says why: no
 * token, a token that is not ours, an expired one, one signed out, or one revoked by a password change
 * or a logout everywhere (its version is outdated). HTTP requests and the live socket's handshake both
 * sign in through here; the handshake reads the claims first (claimsOf), to count its attempts.
 */
async function sessionForToken(
  deps: Pick<Deps, 'config' | 'db'>,
  token: string | undefined,
): Promise<{ account: AccountRow; tokenId: string }> {
  return sessionFor(deps, await claimsOf(deps, token));
}

/** What a token says, if it is ours and unexpired; else a 401 (sessionForToken). */
export async function claimsOf(deps: Pick<Deps, 'config'>, token: string | undefined): Promise<TokenClaims> {
  if (!token) throw new AppError('UNAUTHORIZED', SESSION_MESSAGES.missing);
  return verifyAccessToken(deps.config.jwtSecret, token);
}

/** The account behind verified claims, unless the token was signed out or revoked (sessionForToken). */
export async function sessionFor(
  deps: Pick<Deps, 'db'>,
  claims: TokenClaims,
): Promise<{ account: AccountRow; tokenId: string }> {
  const found = await findAccountForToken(deps.db, claims.accountId, claims.tokenId);
  if (!found || found.revoked || found.account.tokenVersion !== claims.tokenVersion) {
    throw new AppError('UNAUTHORIZED', SESSION_MESSAGES.expired);
  }
  return { account: found.account, tokenId: claims.tokenId };
}

/** The account behind the request's bearer token, or a 401 (see sessionForToken). */
export async function authenticate(request: FastifyRequest): Promise<AccountRow> {
  const { account } = await sessionForToken(request.server.deps, bearerToken(request.headers.authorization));
  request.account = account;
  return account;
}

/**
 * For public routes that show more to the right viewer: the signed-in account, or null for a visitor.
 * An unusable token (expired, revoked) also means a visitor, so a stale session never breaks a public
 * page (the web app logs out on any 401).
 */
export async function optionalAccount(request: FastifyRequest): Promise<AccountRow | null> {
  if (!request.headers.authorization) return null;
  try {
    return await authenticate(request);
  } catch (error) {
    if (hasCode('UNAUTHORIZED')(error)) return null;
    throw error;
  }
}

/**
 * The account a request's bearer token names, checked by its signature alone (no look-up, so a revoked
 * token still names its account): enough to tell a creator's request for their own events from the
 * public's, never enough to grant anything.
 */
export async function claimedAccountId(request: FastifyRequest): Promise<number | null> {
  const token = bearerToken(request.headers.authorization);
  if (!token) return null;
  try {
    return (await verifyAccessToken(request.server.deps.config.jwtSecret, token)).accountId;
  } catch (error) {
    if (hasCode('UNAUTHORIZED')(error)) return null;
    throw error;
  }
}

/** A preHandler admitting signed-in accounts, of the given role only if one is named (else 403). */
export function requireAuth(role?: Role): preHandlerAsyncHookHandler {
  return async (request) => {
    const account = await authenticate(request);
    if (role && account.role !== role) throw new AppError('FORBIDDEN', ROLE_ONLY_MESSAGE[role]);
  };
}

export function signedInAccount(request: FastifyRequest): AccountRow {
  if (!request.account)
    throw new Error(`${request.routeOptions.url} reads the account without requireAuth()`);
  return request.account;
}
