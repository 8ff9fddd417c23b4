import type { Database } from './database';

const preparedByDatabase = new WeakMap<Database, Map<(db: Database) => unknown, unknown>>();

/**
 * The query `prepare` makes on `db` (a drizzle `.prepare(name)`), made once per database and kept with
 * it: a query every request runs is then built once, and PostgreSQL plans it once per connection.
 */
export function preparedFor<Query>(db: Database, prepare: (db: Database) => Query): Query {
  const prepared = preparedByDatabase.get(db) ?? new Map<(db: Database) => unknown, unknown>();
  preparedByDatabase.set(db, prepared);
  if (!prepared.has(prepare)) prepared.set(prepare, prepare(db));
  return prepared.get(prepare) as Query;
}
