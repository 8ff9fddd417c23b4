import { createHmac, randomBytes } from 'node:crypto';
import type { VisitedPage } from '@stagedoor/shared/analytics';
import { LRUCache } from 'lru-cache';

/**
 * The most visits one instance remembers in a day (15 MB at most, measured): past it, the least recent are
 * forgotten first, and counted again should they come back that day.
 */
const VISITS_REMEMBERED = 100_000;

/** Who a visit came from: the signed-in account, or else the client's address and browser. */
export type Visitor = { accountId: number } | { address: string; userAgent: string };

export interface VisitLog {
  /**
   * Remembers the visit, and answers its key if it is the visitor's first of the page on `day`, or null
   * if it was remembered already.
   */
  firstOfDay(day: string, eventId: number, page: VisitedPage, visitor: Visitor): string | null;
  /** Forgets a visit that turned out not to count (no such event): it takes no room. */
  forget(key: string): void;
}

/**
 * The visits this instance saw today, so each visitor is counted once a day: in memory only, each a hash
 * of the day, page and visitor under a secret made at the start (no address or browser is kept, and
 * the hashes mean nothing to another process), all forgotten when the next UTC day begins. With several
 * instances, a visitor whose visits reach two of them is counted by each.
 */
export function visitLog(): VisitLog {
  const secret = randomBytes(32);
  const seen = new LRUCache<string, true>({ max: VISITS_REMEMBERED });
  let today = '';
  return {
    firstOfDay(day, eventId, page, visitor) {
      if (day !== today) {
        seen.clear();
        today = day;
      }
      const who =
        'accountId' in visitor ? `account ${visitor.accountId}` : `${visitor.address} ${visitor.userAgent}`;
      const key = createHmac('sha256', secret)
        .update(`${day}\n${eventId}\n${page}\n${who}`)
        .digest('base64url')
        .slice(0, 22);
      if (seen.has(key)) return null;
      seen.set(key, true);
      return key;
    },
    forget(key) {
      seen.delete(key);
    },
  };
}
