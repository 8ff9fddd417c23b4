import type {
  AuthResponse,
  ChangePasswordRequest,
  LoginRequest,
  RegisterRequest,
  Role,
} from '@stagedoor/shared/accounts';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { NAME_MAX_LENGTH } from '@stagedoor/shared/limits';
import { violatedUniqueIndex, type Database } from '../../db/database';
import {
  ACCOUNT_EMAIL_INDEX,
  ACCOUNT_NICKNAME_INDEX,
  passwordResets,
  type AccountRow,
} from './accounts.tables';
import type { Deps } from '../../deps';
import { AppError, hasCode } from '../../errors';
import {
  claimInvitedAccount,
  findAccountByEmail,
  findAccountById,
  findNicknamesStartingWith,
  insertAccount,
  lockAccountById,
  replacePassword,
  revokeAllTokens,
  revokeToken,
} from './accounts.repo';
import { queueMail } from '../mail/outbox';
import { candidatePrefix, firstFreeNickname, nicknameBase, randomNickname } from './nicknames';
import { hashPassword, verifyDecoyPassword, verifyPassword } from './passwords';
import { toSessionUser } from './session-user';
import { signAccessToken, verifyAccessToken } from './tokens';

const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';
const BAD_CREDENTIALS_MESSAGE = 'Invalid email or password';
const WRONG_CURRENT_PASSWORD_MESSAGE = 'Current password is incorrect';

/** What an account of this role is told when it uses the other role's login page. */
const WRONG_LOGIN_PAGE_MESSAGE: Record<Role, string> = {
  creator: 'This is a creator account. Please log in at /login.',
  user: 'This is a spectator account. Please log in at /user/login.',
};

// For names with no letter or digit in ASCII (e.g. written in another script).
const NICKNAME_FALLBACK: Record<Role, string> = { creator: 'creator', user: 'fan' };
const NICKNAME_ATTEMPTS = 5;

/**
 * Runs `create` with a free nickname derived from `base`, and again with a random one while another
 * account takes the nickname in between (a unique violation).
 */
async function withFreeNickname(
  db: Database,
  base: string,
  create: (nickname: string) => Promise<AccountRow>,
): Promise<AccountRow> {
  for (let attempt = 1; ; attempt += 1) {
    const nickname =
      attempt === 1
        ? firstFreeNickname(base, new Set(await findNicknamesStartingWith(db, candidatePrefix(base))))
        : randomNickname(base);
    try {
      return await create(nickname);
    } catch (error) {
      if (violatedUniqueIndex(error) !== ACCOUNT_NICKNAME_INDEX || attempt === NICKNAME_ATTEMPTS) throw error;
    }
  }
}

const welcomeOf = (account: AccountRow) =>
  ({
    key: `welcome:account:${account.id}`,
    to: account.email,
    kind: 'welcome',
    facts: { firstName: account.firstName, role: account.role },
  }) as const;

/**
 * Creates the account with a free nickname derived from the name, and signs it in. An address whose
 * account was made for a ticket given to it (and never claimed) is claimed instead: its owner keeps the
 * ticket and takes the account.
 */
export async function registerAccount(
  deps: Pick<Deps, 'db' | 'config'>,
  role: Role,
  input: RegisterRequest,
): Promise<AuthResponse> {
  const passwordHash = await hashPassword(input.password);
  const owner = {
    email: input.email,
    passwordHash,
    role,
    firstName: input.firstName,
    lastName: input.lastName,
    timeZone: input.timeZone ?? 'UTC',
  };
  const welcomed = (create: (tx: Database) => Promise<AccountRow | null>) =>
    deps.db.transaction(async (tx) => {
      const account = await create(tx);
      if (account) await queueMail(tx, welcomeOf(account));
      return account;
    });
  const base = nicknameBase(input.firstName, input.lastName, NICKNAME_FALLBACK[role]);
  try {
    const account = await withFreeNickname(deps.db, base, async (nickname) => {
      const created = await welcomed((tx) => insertAccount(tx, { ...owner, nickname }));
      if (!created) throw new Error('insert into accounts returned no row');
      return created;
    });
    return await startSession(deps, account);
  } catch (error) {
    if (violatedUniqueIndex(error) !== ACCOUNT_EMAIL_INDEX) throw error;
    const claimed = await welcomed((tx) => claimInvitedAccount(tx, owner));
    if (!claimed) throw new AppError('CONFLICT', EMAIL_TAKEN_MESSAGE, { email: EMAIL_TAKEN_MESSAGE });
    return startSession(deps, claimed);
  }
}

/**
 * The account a ticket given to `email` goes to (POST /orders/{id}/transfer): the address's own, or,
 * when it has none, a new fan account for it (`invited`: no password of its own, named after the
 * address) that its owner claims by registering with it.
 */
export async function accountForGift(
  deps: Pick<Deps, 'db'>,
  email: string,
): Promise<{ account: AccountRow; invited: boolean }> {
  const existing = await findAccountByEmail(deps.db, email);
  if (existing) return { account: existing, invited: existing.invitedAt !== null };
  const firstName = (email.split('@')[0] ?? '').slice(0, NAME_MAX_LENGTH);
  // A password nobody knows: only the watch link mailed with the ticket, or a reset, opens it.
  const passwordHash = await hashPassword(randomBytes(32).toString('base64url'));
  try {
    const account = await withFreeNickname(
      deps.db,
      nicknameBase(firstName, '', NICKNAME_FALLBACK.user),
      (nickname) =>
        insertAccount(deps.db, {
          email,
          passwordHash,
          role: 'user',
          firstName,
          lastName: '',
          nickname,
          timeZone: 'UTC',
          invitedAt: new Date(),
        }),
    );
    return { account, invited: true };
  } catch (error) {
    // Another gift, or a registration, made the address's account in between: that one it is.
    const raced =
      violatedUniqueIndex(error) === ACCOUNT_EMAIL_INDEX && (await findAccountByEmail(deps.db, email));
    if (!raced) throw error;
    return { account: raced, invited: raced.invitedAt !== null };
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
  return startSession(deps, await setPassword(deps.db, account.id, input.newPassword));
}

/**
 * The one way a password changes (the Profile form, a reset link): every older token is revoked and
 * the owner is told by mail, in one transaction.
 */
async function setPassword(db: Database, accountId: number, password: string): Promise<AccountRow> {
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const updated = await replacePassword(tx, accountId, passwordHash);
    if (!updated) throw new AppError('NOT_FOUND', 'Account not found');
    await retireResetLinks(tx, accountId, new Date());
    await queueMail(tx, {
      key: `password-changed:account:${accountId}:${updated.tokenVersion}`,
      to: updated.email,
      kind: 'password-changed',
      facts: { firstName: updated.firstName },
    });
    return updated;
  });
}

const RESET_LINK_MS = 60 * 60_000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Only an account's newest reset link works, and none once its password changed: every link not used
 * yet is marked used, in the caller's transaction.
 */
async function retireResetLinks(tx: Database, accountId: number, now: Date): Promise<void> {
  await tx
    .update(passwordResets)
    .set({ usedAt: now })
    .where(and(eq(passwordResets.accountId, accountId), isNull(passwordResets.usedAt)));
}

/**
 * POST /auth/forgot-password: mails a single-use link valid an hour, when the email is an account's,
 * and retires the account's older links. The caller learns nothing either way (the route answers 202
 * before this runs).
 */
export async function requestPasswordReset(deps: Pick<Deps, 'db'>, email: string, now: Date): Promise<void> {
  const account = await findAccountByEmail(deps.db, email);
  if (!account) return;
  const token = randomBytes(32).toString('base64url');
  await deps.db.transaction(async (tx) => {
    // Two requests at once: the second waits, then retires the first one's link.
    await lockAccountById(tx, account.id);
    await retireResetLinks(tx, account.id, now);
    const [reset] = await tx
      .insert(passwordResets)
      .values({
        accountId: account.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(now.getTime() + RESET_LINK_MS),
      })
      .returning({ id: passwordResets.id });
    if (!reset) throw new Error('insert into password_resets returned no row');
    await queueMail(tx, {
      key: `password-reset:${reset.id}`,
      to: account.email,
      kind: 'password-reset',
      facts: { firstName: account.firstName, token },
    });
  });
}

const RESET_LINK_INVALID_MESSAGE = 'This reset link is invalid or has expired. Ask for a new one.';

const invalidResetLink = () =>
  new AppError('VALIDATION_FAILED', RESET_LINK_INVALID_MESSAGE, { token: RESET_LINK_INVALID_MESSAGE });

/**
 * POST /auth/reset-password/check: whether the link still sets a password (unused, within its hour), so
 * the page says so before its owner types a new password twice. Changes nothing.
 */
export async function checkResetLink(deps: Pick<Deps, 'db'>, token: string, now: Date): Promise<void> {
  const [usable] = await deps.db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.tokenHash, hashToken(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    );
  if (!usable) throw invalidResetLink();
}

/**
 * POST /auth/reset-password: the link's token, used once within the hour, sets the new password (which
 * revokes every older token) and signs the account in.
 */
export async function resetPassword(
  deps: Pick<Deps, 'db' | 'config'>,
  input: { token: string; password: string },
  now: Date,
): Promise<AuthResponse> {
  const [reset] = await deps.db
    .update(passwordResets)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordResets.tokenHash, hashToken(input.token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .returning({ accountId: passwordResets.accountId });
  if (!reset) throw invalidResetLink();
  return startSession(deps, await setPassword(deps.db, reset.accountId, input.password));
}

/**
 * POST /auth/logout: the token can no longer be used, and its id is answered (its sockets go too); one
 * that is not ours, or expired, needs nothing (null).
 */
export async function logOut(
  deps: Pick<Deps, 'db' | 'config'>,
  token: string | undefined,
  now: Date,
): Promise<string | null> {
  if (!token) return null;
  try {
    const { tokenId, expiresAt } = await verifyAccessToken(deps.config.jwtSecret, token);
    await revokeToken(deps.db, tokenId, expiresAt, now);
    return tokenId;
  } catch (error) {
    if (!hasCode('UNAUTHORIZED')(error)) throw error;
    return null;
  }
}

/** POST /auth/logout-all: every token issued so far is revoked, as a password change does. */
export async function logOutEverywhere(deps: Pick<Deps, 'db'>, account: AccountRow): Promise<void> {
  await revokeAllTokens(deps.db, account.id);
}

/**
 * Signs the account in without its password, for another module that proved who it is (a watch link
 * from a mail): null when no such account is left.
 */
export async function signInAccount(
  deps: Pick<Deps, 'db' | 'config'>,
  accountId: number,
): Promise<AuthResponse | null> {
  const account = await findAccountById(deps.db, accountId);
  return account && startSession(deps, account);
}

async function startSession(deps: Pick<Deps, 'config'>, account: AccountRow): Promise<AuthResponse> {
  return {
    access_token: await signAccessToken(deps.config.jwtSecret, account),
    user: toSessionUser(account),
  };
}
