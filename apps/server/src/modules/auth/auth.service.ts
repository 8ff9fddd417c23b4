import type {
  AuthResponse,
  ChangePasswordRequest,
  LoginRequest,
  RegisterRequest,
  Role,
} from '@stagedoor/shared/auth';
import { violatedUniqueIndex } from '../../db/database';
import { ACCOUNT_EMAIL_INDEX, ACCOUNT_NICKNAME_INDEX, type AccountRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import {
  findAccountByEmail,
  findNicknamesStartingWith,
  insertAccount,
  replacePassword,
} from './accounts.repo';
import { candidatePrefix, firstFreeNickname, nicknameBase, randomNickname } from './nicknames';
import { hashPassword, verifyDecoyPassword, verifyPassword } from './passwords';
import { toSessionUser } from './session-user';
import { signAccessToken } from './tokens';

export const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';
export const BAD_CREDENTIALS_MESSAGE = 'Invalid email or password';
export const WRONG_CURRENT_PASSWORD_MESSAGE = 'Current password is incorrect';

/** What an account of this role is told when it uses the other role's login page. */
export const WRONG_LOGIN_PAGE_MESSAGE: Record<Role, string> = {
  creator: 'This is a creator account. Please log in at /login.',
  user: 'This is a spectator account. Please log in at /user/login.',
};

// For names with no letter or digit in ASCII (e.g. written in another script).
const NICKNAME_FALLBACK: Record<Role, string> = { creator: 'creator', user: 'fan' };
const NICKNAME_ATTEMPTS = 5;

/** Creates the account with a free nickname derived from the name, and signs it in. */
export async function registerAccount(
  deps: Pick<Deps, 'db' | 'config'>,
  role: Role,
  input: RegisterRequest,
): Promise<AuthResponse> {
  const passwordHash = await hashPassword(input.password);
  const base = nicknameBase(input.firstName, input.lastName, NICKNAME_FALLBACK[role]);
  for (let attempt = 1; ; attempt += 1) {
    const nickname =
      attempt === 1
        ? firstFreeNickname(base, new Set(await findNicknamesStartingWith(deps.db, candidatePrefix(base))))
        : randomNickname(base);
    try {
      const account = await insertAccount(deps.db, {
        email: input.email,
        passwordHash,
        role,
        firstName: input.firstName,
        lastName: input.lastName,
        nickname,
        timeZone: input.timeZone ?? 'UTC',
      });
      return await startSession(deps, account);
    } catch (error) {
      const index = violatedUniqueIndex(error);
      if (index === ACCOUNT_EMAIL_INDEX) {
        throw new AppError('CONFLICT', EMAIL_TAKEN_MESSAGE, { email: EMAIL_TAKEN_MESSAGE });
      }
      // Another registration took the same nickname since we looked: try a random one.
      if (index !== ACCOUNT_NICKNAME_INDEX || attempt === NICKNAME_ATTEMPTS) throw error;
    }
  }
}

/**
 * Checks the credentials, then the role: the role is only revealed to someone who knows the password,
 * and then names the login page to use instead.
 */
export async function logIn(
  deps: Pick<Deps, 'db' | 'config'>,
  role: Role,
  input: LoginRequest,
): Promise<AuthResponse> {
  const account = await findAccountByEmail(deps.db, input.email);
  const passwordMatches = account
    ? await verifyPassword(account.passwordHash, input.password)
    : await verifyDecoyPassword(input.password);
  if (!account || !passwordMatches) throw new AppError('UNAUTHORIZED', BAD_CREDENTIALS_MESSAGE);
  if (account.role !== role) throw new AppError('FORBIDDEN', WRONG_LOGIN_PAGE_MESSAGE[account.role]);
  return startSession(deps, account);
}

/**
 * Changing the password revokes every token issued so far, the caller's included, so the answer
 * carries a fresh one. A wrong current password is a 400, not a 401: the client must not log out.
 */
export async function changePassword(
  deps: Pick<Deps, 'db' | 'config'>,
  account: AccountRow,
  input: ChangePasswordRequest,
): Promise<AuthResponse> {
  if (!(await verifyPassword(account.passwordHash, input.currentPassword))) {
    throw new AppError('VALIDATION_FAILED', WRONG_CURRENT_PASSWORD_MESSAGE, {
      currentPassword: WRONG_CURRENT_PASSWORD_MESSAGE,
    });
  }
  const updated = await replacePassword(deps.db, account.id, await hashPassword(input.newPassword));
  if (!updated) throw new AppError('NOT_FOUND', 'Account not found');
  return startSession(deps, updated);
}

async function startSession(deps: Pick<Deps, 'config'>, account: AccountRow): Promise<AuthResponse> {
  return {
    access_token: await signAccessToken(deps.config.jwtSecret, account),
    user: toSessionUser(account),
  };
}
