import type { SessionUser } from '@stagedoor/shared/accounts';
import type { AccountRow } from './accounts.tables';

/** The account as its owner sees it: never the password hash or the token version. */
export function toSessionUser(account: AccountRow): SessionUser {
  return {
    id: account.id,
    email: account.email,
    role: account.role,
    firstName: account.firstName,
    lastName: account.lastName,
    nickname: account.nickname,
    biography: account.biography,
    headerImageUrl: account.headerImage,
    profileImageUrl: account.profileImage,
    timeZone: account.timeZone,
  };
}
