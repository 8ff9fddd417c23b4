import type { AccountRow } from '../../db/schema';
import type { Deps } from '../../deps';
import { findAccountById, findAccountByNickname } from './accounts.repo';

/** The accounts other modules may look up: by id or nickname, or null for none. */
export function findAccount(deps: Pick<Deps, 'db'>, id: number): Promise<AccountRow | null> {
  return findAccountById(deps.db, id);
}

export function findAccountNamed(deps: Pick<Deps, 'db'>, nickname: string): Promise<AccountRow | null> {
  return findAccountByNickname(deps.db, nickname);
}
