import { and, count, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/database';
import { preparedFor } from '../../db/prepared';
import { accounts, revokedTokens, type AccountRow } from './accounts.tables';

type NewAccount = Pick<
  AccountRow,
  'email' | 'passwordHash' | 'role' | 'firstName' | 'lastName' | 'nickname' | 'timeZone'
> &
  Partial<Pick<AccountRow, 'invitedAt'>>;

export type AccountChanges = Partial<
  Pick<
    AccountRow,
    'firstName' | 'lastName' | 'nickname' | 'biography' | 'headerImage' | 'profileImage' | 'timeZone'
  >
>;

/** Throws the driver's unique violation when the email or the nickname is taken (see violatedUniqueIndex). */
export async function insertAccount(db: Database, account: NewAccount): Promise<AccountRow> {
  const [row] = await db.insert(accounts).values(account).returning();
  if (!row) throw new Error('insert into accounts returned no row');
  return row;
}

/**
 * Registration with the address of an account made for a given ticket (invitedAt set) and of the same
 * role: the account takes the new owner's password and names, and its sessions so far end. Null when the
 * address has no such account.
 */
export async function claimInvitedAccount(
  db: Database,
  account: Pick<NewAccount, 'email' | 'role' | 'passwordHash' | 'firstName' | 'lastName' | 'timeZone'>,
): Promise<AccountRow | null> {
  const { email, role, ...owner } = account;
  const [row] = await db
    .update(accounts)
    .set({
      ...owner,
      invitedAt: null,
      tokenVersion: sql`${accounts.tokenVersion} + 1`,
      updatedAt: new Date(),
    })
    .where(
      and(
        sql`lower(${accounts.email}) = lower(${email})`,
        eq(accounts.role, role),
        isNotNull(accounts.invitedAt),
      ),
    )
    .returning();
  return row ?? null;
}

export async function findAccountById(db: Database, id: number): Promise<AccountRow | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));
  return row ?? null;
}

/** The account a token names, and whether that token was signed out (revoked_tokens), in one read. */
export async function findAccountForToken(
  db: Database,
  id: number,
  tokenId: string,
): Promise<{ account: AccountRow; revoked: boolean } | null> {
  const [row] = await preparedFor(db, accountForToken).execute({ id, tokenId });
  return row ?? null;
}

/** Every request signed in runs it: prepared once per database (built once, planned once per connection). */
const accountForToken = (db: Database) =>
  db
    .select({
      account: accounts,
      revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.tokenId} = ${sql.placeholder('tokenId')})`,
    })
    .from(accounts)
    .where(eq(accounts.id, sql.placeholder('id')))
    .prepare('account_for_token');

/** Signs one token out until it expires; tokens that expired meanwhile are forgotten. */
export async function revokeToken(db: Database, tokenId: string, expiresAt: Date, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(revokedTokens).values({ tokenId, expiresAt }).onConflictDoNothing();
    await tx.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now));
  });
}

/** Revokes every token of the account issued so far (they carry the old version): logout everywhere. */
export async function revokeAllTokens(db: Database, id: number): Promise<void> {
  await db
    .update(accounts)
    .set({ tokenVersion: sql`${accounts.tokenVersion} + 1`, updatedAt: new Date() })
    .where(eq(accounts.id, id));
}

export async function findAccountByEmail(db: Database, email: string): Promise<AccountRow | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.email}) = lower(${email})`);
  return row ?? null;
}

/** Nicknames are unique whatever their case, so any case finds the account. */
export async function findAccountByNickname(db: Database, nickname: string): Promise<AccountRow | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.nickname}) = lower(${nickname})`);
  return row ?? null;
}

/** The lower-cased nicknames starting with a (lower-case) prefix. */
export async function findNicknamesStartingWith(db: Database, prefix: string): Promise<string[]> {
  const rows = await db
    .select({ nickname: sql<string>`lower(${accounts.nickname})` })
    .from(accounts)
    .where(sql`starts_with(lower(${accounts.nickname}), ${prefix})`);
  return rows.map((row) => row.nickname);
}

/**
 * Applies the changes and returns the row before and after them, read under a row lock, so the caller
 * knows exactly which stored images the update replaced. Null when the account does not exist.
 */
export async function updateAccount(
  db: Database,
  id: number,
  changes: AccountChanges,
): Promise<{ before: AccountRow; after: AccountRow } | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(accounts).where(eq(accounts.id, id)).for('update');
    if (!before) return null;
    const [after] = await tx
      .update(accounts)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(accounts.id, id))
      .returning();
    return after ? { before, after } : null;
  });
}

/** Sets a new password hash and revokes every token issued before (they carry the old version). */
export async function replacePassword(
  db: Database,
  id: number,
  passwordHash: string,
): Promise<AccountRow | null> {
  const [row] = await db
    .update(accounts)
    // A password of its own: an account made for a given ticket is its owner's from now on.
    .set({
      passwordHash,
      invitedAt: null,
      tokenVersion: sql`${accounts.tokenVersion} + 1`,
      updatedAt: new Date(),
    })
    .where(eq(accounts.id, id))
    .returning();
  return row ?? null;
}

export async function countAccounts(db: Database): Promise<number> {
  const [row] = await db.select({ total: count() }).from(accounts);
  return row?.total ?? 0;
}

/** The account, its row locked until the caller's transaction ends. */
export async function lockAccountById(tx: Database, id: number): Promise<AccountRow | null> {
  const [row] = await tx.select().from(accounts).where(eq(accounts.id, id)).for('update');
  return row ?? null;
}

/** Locks the account unless another transaction holds it: false then (or when there is none), without waiting. */
export async function lockAccountByIdIfFree(tx: Database, id: number): Promise<boolean> {
  const rows = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(eq(accounts.id, id))
    .for('update', { skipLocked: true });
  return rows.length > 0;
}

/** What the account's owner or Stripe changes outside the profile: reminders, payouts, the founders' mark. */
export type AccountSettings = Partial<
  Pick<AccountRow, 'remindersEnabled' | 'foundingPartner' | 'stripeAccountId' | 'stripePayoutsEnabled'>
>;

/** Null when the account does not exist. */
export async function changeAccountSettings(
  db: Database,
  id: number,
  settings: AccountSettings,
): Promise<AccountRow | null> {
  const [row] = await db
    .update(accounts)
    .set({ ...settings, updatedAt: new Date() })
    .where(eq(accounts.id, id))
    .returning();
  return row ?? null;
}

/** The creator's account whose email this is (in any case), or null. */
export async function findCreatorByEmail(db: Database, email: string): Promise<AccountRow | null> {
  const [row] = await db
    .select()
    .from(accounts)
    .where(and(sql`lower(${accounts.email}) = lower(${email})`, eq(accounts.role, 'creator')));
  return row ?? null;
}

/** The account whose Stripe Express account this is, or null. */
export async function findAccountByStripeAccount(
  db: Database,
  stripeAccountId: string,
): Promise<AccountRow | null> {
  const [row] = await db.select().from(accounts).where(eq(accounts.stripeAccountId, stripeAccountId));
  return row ?? null;
}
