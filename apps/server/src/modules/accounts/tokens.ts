import { randomUUID } from 'node:crypto';
import { ZRole, type Role } from '@stagedoor/shared/accounts';
import { ID_MAX } from '@stagedoor/shared/limits';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import type { AccountRow } from '../../db/schema';
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

/** Throws a 401 AppError whose message tells the user what to do. */
export async function verifyAccessToken(secret: Uint8Array, token: string): Promise<TokenClaims> {
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
  return { accountId: sub, role, tokenVersion: ver, tokenId: jti, expiresAt: new Date(exp * 1000) };
}
