import { eq, getTableColumns } from 'drizzle-orm';
import { views } from '../../db/views';
import { accounts } from './accounts.tables';

// Never the password's hash nor the sessions' version: those are the accounts module's alone.
const { passwordHash: _hash, tokenVersion: _version, ...readable } = getTableColumns(accounts);

/** Accounts as other modules read them in their own queries (db/views.ts). */
export function accountView<Name extends string>(name: Name) {
  return views.select(readable).from(accounts).as(name);
}

/**
 * One account, its row locked until the caller's transaction ends: one purchase of an account at a
 * time, say. Joined in the caller's statement, so the lock costs no round trip of its own.
 */
export function lockedAccountView<Name extends string>(name: Name, id: number) {
  return views.select(readable).from(accounts).where(eq(accounts.id, id)).for('update').as(name);
}
