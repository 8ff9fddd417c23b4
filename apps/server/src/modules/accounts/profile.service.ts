import type { ProfileUpdateRequest, SessionUser } from '@stagedoor/shared/accounts';
import { violatedUniqueIndex } from '../../db/database';
import { ACCOUNT_NICKNAME_INDEX, type AccountRow } from './accounts.tables';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import type { ImageUpload } from '../../plugins/multipart';
import { saveImageWith } from '../images/images.service';
import { updateAccount, type AccountChanges } from './accounts.repo';
import { isReservedNickname } from './nicknames';
import { toSessionUser } from './session-user';

const NICKNAME_TAKEN_MESSAGE = 'This nickname is already taken';

type ProfileImageSlot = 'headerImage' | 'profileImage';

interface ProfileImageUpload {
  slot: ProfileImageSlot;
  upload: ImageUpload;
}

/** Applies the fields present in `input` and, when given, replaces one of the creator's images. */
export async function updateProfile(
  deps: Pick<Deps, 'db' | 'images' | 'log'>,
  account: AccountRow,
  input: ProfileUpdateRequest,
  image?: ProfileImageUpload,
): Promise<SessionUser> {
  const changes = profileChanges(account, input);
  if (!image) return toSessionUser((await applyChanges(deps, account.id, changes)).after);

  return saveImageWith(deps, image.upload, async (imageName) => {
    const { before, after } = await applyChanges(deps, account.id, { ...changes, [image.slot]: imageName });
    return { result: toSessionUser(after), replacedImage: before[image.slot] };
  });
}

function profileChanges(account: AccountRow, input: ProfileUpdateRequest): AccountChanges {
  const changes: AccountChanges = {};
  if (input.firstName !== undefined) changes.firstName = input.firstName;
  if (input.lastName !== undefined) changes.lastName = input.lastName;
  if (input.timeZone !== undefined) changes.timeZone = input.timeZone;
  if (input.nickname !== undefined) {
    // A reserved word is as unavailable as a nickname someone has.
    if (isReservedNickname(input.nickname)) throw nicknameTaken();
    changes.nickname = input.nickname;
  }
  // Spectators have no biography (spec §6); one sent along with their other fields is ignored.
  if (input.biography !== undefined && account.role === 'creator')
    changes.biography = input.biography || null;
  return changes;
}

async function applyChanges(deps: Pick<Deps, 'db'>, accountId: number, changes: AccountChanges) {
  try {
    const result = await updateAccount(deps.db, accountId, changes);
    if (!result) throw new AppError('NOT_FOUND', 'Account not found');
    return result;
  } catch (error) {
    if (violatedUniqueIndex(error) === ACCOUNT_NICKNAME_INDEX) throw nicknameTaken();
    throw error;
  }
}

function nicknameTaken(): AppError {
  return new AppError('CONFLICT', NICKNAME_TAKEN_MESSAGE, { nickname: NICKNAME_TAKEN_MESSAGE });
}
