import type { PublicUser } from '@stagedoor/shared/creators';
import type { AccountRow } from './accounts.tables';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { findAccountById } from './accounts.repo';
import { toSessionUser } from './session-user';

export const USER_NOT_FOUND_MESSAGE = 'User not found';

/**
 * GET /users/{id}, read by the simple creator view. An account sees itself as its session shows it.
 * Anyone else sees creators only, with the full name where the spec shows the email (DESIGN.md
 * Privacy); a spectator is nobody's business but their own.
 */
export async function getPublicUser(
  deps: Pick<Deps, 'db'>,
  viewer: AccountRow | null,
  id: number,
): Promise<PublicUser> {
  // The viewer's own row is already loaded by the authentication.
  if (viewer?.id === id) return toSessionUser(viewer);
  const account = await findAccountById(deps.db, id);
  if (account?.role !== 'creator') throw new AppError('NOT_FOUND', USER_NOT_FOUND_MESSAGE);
  return { ...toSessionUser(account), email: `${account.firstName} ${account.lastName}` };
}
