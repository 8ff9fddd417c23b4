import { eq, sql, sum } from 'drizzle-orm';
import type { Database } from '../src/db/database';
import { ledgerEntries, ledgerTransactions, type LedgerAccount } from '../src/db/schema';

/** Every creator's balance in every account, in cents (absent = 0). */
export async function balances(db: Database): Promise<Map<number, Partial<Record<LedgerAccount, number>>>> {
  const rows = await db
    .select({
      creatorId: ledgerEntries.creatorId,
      account: ledgerEntries.account,
      total: sum(ledgerEntries.amountCents).mapWith(Number),
    })
    .from(ledgerEntries)
    .groupBy(ledgerEntries.creatorId, ledgerEntries.account);
  const byCreator = new Map<number, Partial<Record<LedgerAccount, number>>>();
  for (const row of rows) {
    // Money that is no creator's (a stray payment) belongs to no creator's balance.
    if (row.creatorId === null) continue;
    byCreator.set(row.creatorId, { ...byCreator.get(row.creatorId), [row.account]: row.total });
  }
  return byCreator;
}

/** One creator's balance in one account, in cents. */
export async function balanceIn(db: Database, creatorId: number, account: LedgerAccount): Promise<number> {
  return (await balances(db)).get(creatorId)?.[account] ?? 0;
}

/**
 * Per creator: what they earned, net (sales less fees, refunds, penalties and disputes), and their debts:
 * what penalties, disputes and refunds after an event's release charged to their available balance,
 * which may take it below zero. In cents. Releases and payouts only move money between their accounts.
 */
export async function earnedNet(db: Database): Promise<Map<number, { net: number; debts: number }>> {
  const onCreators = sql`${ledgerEntries.account} like 'creator_%'`;
  const rows = await db
    .select({
      creatorId: ledgerEntries.creatorId,
      net: sql<string>`coalesce(sum(${ledgerEntries.amountCents}) filter (where ${onCreators}), 0)`.mapWith(
        Number,
      ),
      debts:
        sql<string>`coalesce(sum(-${ledgerEntries.amountCents}) filter (where ${ledgerTransactions.kind} in ('penalty', 'dispute', 'dispute_reversal') and ${onCreators} or ${ledgerTransactions.kind} = 'refund' and ${ledgerEntries.account} = 'creator_available'), 0)`.mapWith(
          Number,
        ),
    })
    .from(ledgerEntries)
    .innerJoin(ledgerTransactions, eq(ledgerTransactions.id, ledgerEntries.transactionId))
    .where(sql`${ledgerTransactions.kind} in ('sale', 'refund', 'penalty', 'dispute', 'dispute_reversal')`)
    .groupBy(ledgerEntries.creatorId);
  return new Map(
    rows.flatMap((row) =>
      row.creatorId === null ? [] : [[row.creatorId, { net: row.net, debts: row.debts }]],
    ),
  );
}
