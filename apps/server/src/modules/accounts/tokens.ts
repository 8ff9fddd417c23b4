import { randomUUID } from 'node:crypto';
import { ZRole, type Role } from '@stagedoor/shared/accounts';
import { ID_MAX } from '@stagedoor/shared/limits';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { AccountRow } from './accounts.tables';
import { AppError } from '../../errors';

const ALGORITHM = 'HS256';
const TOKEN_LIFETIME = '7d';

export const SESSION_MESSAGES = {
  missing: 'Authentication required',
  invalid: 'Invalid session, please log in again',
  expired: 'Session expired, please log in again',
} as const;

const ZClaims = z.object({
  sub: z
    .string()
    .regex(/^\d{1,10}$/)
    .transform(Number)
    .pipe(z.number().min(1).max(ID_MAX)),
  role: ZRole,
  ver: z.number().int().nonnegative(),
  // Names the token, so a logout can revoke it alone (revoked_tokens).
  jti: z.string().min(1).max(64),
  // jwtVerify checks it when present; a token without one would never expire.
  exp: z.number(),
});

export interface TokenClaims {
  accountId: number;
  role: Role;
  tokenVersion: number;
  tokenId: string;
  expiresAt: Date;
}

export function signAccessToken(
  secret: Uint8Array,
  account: Pick<AccountRow, 'id' | 'role' | 'tokenVersion'>,
): Promise<string> {
  return new SignJWT({ role: account.role, ver: account.tokenVersion })
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(String(account.id))
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(TOKEN_LIFETIME)
    .sign(secret);
}

/**
 * Tokens whose signature and claims were verified, per secret: a session's requests verify its token
 * once, not on every request (an HMAC through WebCrypto costs a drop's purchase more than any of its
 * statements). A token is used from here only until it expires, and at most VERIFIED_TOKENS_KEPT are
 * kept per secret, the oldest forgotten first, so a flood of signed tokens costs bounded memory.
 * Only the signature is remembered: every request still reads the account, so a signed-out or revoked
 * token is refused at once (sessions.ts sessionFor).
 */
const verifiedTokens = new WeakMap<Uint8Array, Map<string, TokenClaims>>();
const VERIFIED_TOKENS_KEPT = 10_000;

/** How many verified tokens are kept for the secret (VERIFIED_TOKENS_KEPT at most). */
export const verifiedTokensKept = (secret: Uint8Array): number => verifiedTokens.get(secret)?.size ?? 0;

/** Throws a 401 AppError whose message tells the user what to do. */
export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<TokenClaims> {
  const kept = verifiedTokens.get(secret)?.get(token);
  if (kept && kept.expiresAt.getTime() > Date.now()) return kept;
  const claims = await verifySignedToken(secret, token);
  const verified = verifiedTokens.get(secret) ?? new Map<string, TokenClaims>();
  verifiedTokens.set(secret, verified);
  verified.delete(token);
  verified.set(token, claims);
  for (const oldest of verified.keys()) {
    if (verified.size <= VERIFIED_TOKENS_KEPT) break;
    verified.delete(oldest);
  }
  return claims;
}

async function verifySignedToken(secret: Uint8Array, token: string): Promise<TokenClaims> {
  let payload: unknown;
  try {
    ({ payload } = await jwtVerify(token, secret, { algorithms: [ALGORITHM] }));
  } catch (error) {
    const expired = error instanceof errors.JWTExpired;
    throw new AppError('UNAUTHORIZED', expired ? SESSION_MESSAGES.expired : SESSION_MESSAGES.invalid);
  }
  const claims = ZClaims.safeParse(payload);
  if (!claims.success) throw new AppError('UNAUTHORIZED', SESSION_MESSAGES.invalid);
  const { sub, role, ver, jti, exp } = claims.data;
  return Object.freeze({
    accountId: sub,
    role,
    tokenVersion: ver,
    tokenId: jti,
    expiresAt: new Date(exp * 1000),
  });
}
