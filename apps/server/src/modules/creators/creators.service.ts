import type { PublicCreator } from '@stagedoor/shared/creators';
import type { AccountRow } from '../accounts/accounts.tables';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { findAccount, findAccountNamed } from '../accounts/accounts.service';

const CREATOR_NOT_FOUND_MESSAGE = 'Creator not found';

/** Only creator accounts have public pages: a spectator's id or nickname is as unknown as a free one. */
function asCreator(account: AccountRow | null): AccountRow {
  if (account?.role !== 'creator') throw new AppError('NOT_FOUND', CREATOR_NOT_FOUND_MESSAGE);
  return account;
}

export async function findCreatorById(deps: Pick<Deps, 'db'>, id: number): Promise<AccountRow> {
  return asCreator(await findAccount(deps, id));
}

export async function findCreatorByNickname(deps: Pick<Deps, 'db'>, nickname: string): Promise<AccountRow> {
  return asCreator(await findAccountNamed(deps, nickname));
}

/** GET /creators/{id}, GET /creators/profile/{nickname}: names, images and biography, never the email. */
export function toPublicCreator(creator: AccountRow): PublicCreator {
  return {
    id: creator.id,
    nickname: creator.nickname,
    firstName: creator.firstName,
    lastName: creator.lastName,
    creatorInfo: {
      headerImageUrl: creator.headerImage,
      profileImageUrl: creator.profileImage,
      biography: creator.biography,
    },
  };
}
