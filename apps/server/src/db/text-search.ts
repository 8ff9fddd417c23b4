import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * Text as a search compares it: accents dropped, then lower case (stagedoor_fold, defined by
 * drizzle/0011_search_fold.sql, which also folds each event's stored search text).
 */
export const folded = (text: SQLWrapper): SQL => sql`stagedoor_fold(${text})`;

/** LIKE's wildcards and its escape character, taken literally (backslash is LIKE's default escape). */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The LIKE pattern of folded text that contains `part` anywhere, as typed (wildcards and all). */
export const containing = (part: string): SQL => folded(sql`${'%' + escapeLike(part) + '%'}::text`);
