import type { AccountRow } from './accounts.tables';
import type { Database } from '../../db/database';
import type { Deps } from '../../deps';
import {
  changeAccountSettings,
  findAccountById,
  findAccountByNickname,
  findAccountByStripeAccount,
  findCreatorByEmail,
  lockAccountById,
  lockAccountByIdIfFree,
  type AccountSettings,
} from './accounts.repo';

/** The accounts other modules may look up: by id or nickname, or null for none. */
export function findAccount(deps: Pick<Deps, 'db'>, id: number): Promise<AccountRow | null> {
  return findAccountById(deps.db, id);
}

export function findAccountNamed(deps: Pick<Deps, 'db'>, nickname: string): Promise<AccountRow | null> {
  return findAccountByNickname(deps.db, nickname);
}

export function findCreatorWithEmail(deps: Pick<Deps, 'db'>, email: string): Promise<AccountRow | null> {
  return findCreatorByEmail(deps.db, email);
}

export function findAccountOfStripe(
  deps: Pick<Deps, 'db'>,
  stripeAccountId: string,
): Promise<AccountRow | null> {
  return findAccountByStripeAccount(deps.db, stripeAccountId);
}

/**
 * The account, locked until the caller's transaction ends: one decision about it at a time (a creator's
 * releases and payouts are decided under it).
 */
export async function lockAccount(tx: Database, id: number): Promise<AccountRow> {
  const account = await lockAccountById(tx, id);
  if (!account) throw new Error(`account ${id} not found`);
  return account;
}

/**
 * Locks the account as lockAccount does, unless another transaction holds it (one of its purchases
 * under way): false then, at once. For a caller that already holds an event's row, which a purchase
 * locks after its buyer's account: waiting would deadlock.
 */
export function lockAccountIfFree(tx: Database, id: number): Promise<boolean> {
  return lockAccountByIdIfFree(tx, id);
}

/** Reminders, payouts, the founders' mark: null when the account does not exist. */
export function changeSettings(
  db: Database,
  id: number,
  settings: AccountSettings,
): Promise<AccountRow | null> {
  return changeAccountSettings(db, id, settings);
}
