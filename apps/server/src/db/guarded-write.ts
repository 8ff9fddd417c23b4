import { and, getTableColumns, getTableName, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Database } from './database';

/** Rows to insert into one table, keyed as its drizzle columns; a column no row names takes its default. */
export interface Rows<Table extends PgTable = PgTable> {
  table: Table;
  rows: Table['$inferInsert'][];
}

/**
 * `alsoChanges` of writeIfChanged are only made once its `change` changed a row: this condition in
 * their WHERE says so (they name its rows "changed").
 */
export const AFTER_CHANGE: SQL = sql`exists (select 1 from "changed")`;

/**
 * Thrown when writeIfChanged's `change` changed a row but one of its `alsoChanges` did not: the
 * statement wrote nothing else, and the caller's transaction must end in a rollback to undo `change`.
 */
export class PartialChange extends Error {
  constructor() {
    super('a change was made without the changes that go with it');
  }
}

/**
 * One statement, so one round trip to the database where a statement per table would take one each:
 * `change` (an UPDATE … RETURNING, run first), each of `alsoChanges` (UPDATEs … RETURNING made only
 * after it: AFTER_CHANGE), then every row of `writes`, inserted only if `change` and every one of
 * `alsoChanges` changed a row. All of it or none applies, and no row is written when nothing changed,
 * so the caller's transaction has nothing to undo; when `change` changed but an also-change did not, it
 * throws PartialChange and the caller's transaction rolls back. Rows that name each other carry ids
 * taken beforehand (nextIdOf): the statement's parts all see the database as it was when it began,
 * never each other's rows.
 */
export async function writeIfChanged(
  tx: Database,
  change: SQLWrapper,
  writes: Rows[],
  alsoChanges: SQLWrapper[] = [],
): Promise<boolean> {
  const also = alsoChanges.map(
    (alsoChange, index) => sql`, ${sql.identifier(`also_${index}`)} as (${alsoChange.getSQL()})`,
  );
  const allChanged = and(
    ...alsoChanges.map((_, index) => sql`exists (select 1 from ${sql.identifier(`also_${index}`)})`),
  );
  const inserts = writes
    .filter((write) => write.rows.length > 0)
    .map(
      (write, index) => sql`, ${sql.identifier(`write_${index}`)} as (${insertFrom(write, 'all_changed')})`,
    );
  // Both drivers (node-postgres and PGlite) answer with the rows in `rows`.
  const result = (await tx.execute(
    sql`with "changed" as (${change.getSQL()})${sql.join(also)}, "all_changed" as (select 1 from "changed"${allChanged ? sql` where ${allChanged}` : sql``})${sql.join(inserts)} select exists (select 1 from "changed") as "changed", exists (select 1 from "all_changed") as "all_changed"`,
  )) as unknown as { rows: { changed: boolean; all_changed: boolean }[] };
  const [row] = result.rows;
  if (row?.changed && !row.all_changed) throw new PartialChange();
  return row?.all_changed === true;
}

/** A new id from the table's `id` sequence, to name a row before it is written. */
export function nextIdOf(table: PgTable): SQL<number> {
  return sql<number>`nextval(pg_get_serial_sequence(${getTableName(table)}, 'id'))::integer`.mapWith(Number);
}

/**
 * `insert into <table> (<columns>) select <columns> from <source>, json_populate_recordset(…)`: the rows
 * once per row of `source` (here zero or one). The rows travel as one JSON parameter per table, which
 * PostgreSQL reads as the table's own row type, so every value gets its column's type without a cast
 * and the statement stays short to build and to parse however many rows it writes. Values go as JSON
 * writes them: numbers, strings, booleans, objects (a jsonb column) and dates (ISO 8601).
 */
function insertFrom({ table, rows }: Rows, source: string): SQL {
  // The columns some row names, as [key in the rows, column name].
  const named = Object.entries(getTableColumns(table))
    .filter(([key]) => rows.some((row) => key in row))
    .map(([key, column]): [string, string] => [key, column.name]);
  const names = named.map(([, name]) => name);
  const records = rows.map((row) =>
    Object.fromEntries(named.map(([key, name]) => [name, (row as Record<string, unknown>)[key] ?? null])),
  );
  const targets = sql.join(
    names.map((name) => sql.identifier(name)),
    sql`, `,
  );
  const values = sql.join(
    names.map((name) => sql`"row".${sql.identifier(name)}`),
    sql`, `,
  );
  return sql`insert into ${table} (${targets}) select ${values} from ${sql.identifier(source)}, json_populate_recordset(null::${table}, ${JSON.stringify(records)}::json) as "row"`;
}
