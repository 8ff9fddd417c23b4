import type { PublicCreator } from '@stagedoor/shared/creators';
import type { Event } from '@stagedoor/shared/events';
import type { AccountRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { findAccountById, findAccountByNickname } from '../auth/accounts.repo';
import { listUpcomingEventsOf } from '../events/events.repo';
import { toEvent } from '../events/public-event';

export const CREATOR_NOT_FOUND_MESSAGE = 'Creator not found';

/** Only creator accounts have public pages: a spectator's id or nickname is as unknown as a free one. */
function asCreator(account: AccountRow | null): AccountRow {
  if (account?.role !== 'creator') throw new AppError('NOT_FOUND', CREATOR_NOT_FOUND_MESSAGE);
  return account;
}

export async function findCreatorById(deps: Pick<Deps, 'db'>, id: number): Promise<AccountRow> {
  return asCreator(await findAccountById(deps.db, id));
}

export async function findCreatorByNickname(deps: Pick<Deps, 'db'>, nickname: string): Promise<AccountRow> {
  return asCreator(await findAccountByNickname(deps.db, nickname));
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

/** GET /creators/{nickname}/events: what the creator's public page offers for sale. */
export async function listCreatorUpcomingEvents(deps: Pick<Deps, 'db'>, nickname: string): Promise<Event[]> {
  const creator = await findCreatorByNickname(deps, nickname);
  return (await listUpcomingEventsOf(deps.db, creator.id)).map(toEvent);
}
