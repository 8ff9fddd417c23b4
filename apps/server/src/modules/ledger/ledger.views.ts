import { getTableColumns } from 'drizzle-orm';
import { views } from '../../db/views';
import { ledgerEntries, ledgerTransactions } from './ledger.tables';

/**
 * The ledger's movements and their entries as other modules read them in their reports (db/views.ts),
 * under the tables' names unless the query needs a second one.
 */
export function ledgerTransactionsView<Name extends string = 'ledger_transactions'>(
  name = 'ledger_transactions' as Name,
) {
  return views.select(getTableColumns(ledgerTransactions)).from(ledgerTransactions).as(name);
}

export function ledgerEntriesView<Name extends string = 'ledger_entries'>(name = 'ledger_entries' as Name) {
  return views.select(getTableColumns(ledgerEntries)).from(ledgerEntries).as(name);
}
