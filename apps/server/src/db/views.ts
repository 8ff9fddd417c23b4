import { QueryBuilder } from 'drizzle-orm/pg-core';

/**
 * Builds the read-only views a module offers the others (`<module>.views.ts`): a subquery of some of
 * its table's columns under a name of the caller's choosing. Joined and filtered like the table, and
 * planned by PostgreSQL as the table itself, it cannot be written through: every change to a module's
 * rows goes through that module's functions.
 */
export const views = new QueryBuilder();
