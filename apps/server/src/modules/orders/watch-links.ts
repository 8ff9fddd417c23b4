import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt } from 'drizzle-orm';
import { inBatches } from '../../db/batches';
import type { Database } from '../../db/database';
import type { Rows } from '../../db/guarded-write';
import { eventsView as events } from '../events/events.views';
import { orders, watchLinks } from './orders.tables';

/**
 * How long after its show a watch link still opens it: the fan who comes back the next days finds
 * their show (and, once recorded, its replay) without a password.
 */
export const WATCH_LINK_AFTER_SHOW_MS = 7 * 24 * 60 * 60_000;

/** A watch link to put in a mail: the token the mail carries, and the row that keeps only its hash. */
interface WatchLink {
  token: string;
  rows: Rows<typeof watchLinks>;
}

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new link (256 random bits) that signs the holder of the order in, to write with the mail it goes in. */
export function newWatchLink(order: { id: number; accountId: number }): WatchLink {
  const token = randomBytes(32).toString('base64url');
  return {
    token,
    rows: {
      table: watchLinks,
      rows: [{ tokenHash: hashOf(token), orderId: order.id, accountId: order.accountId }],
    },
  };
}

/** Writes a new watch link in the caller's transaction, and answers its token for the mail. */
export async function issueWatchLink(
  tx: Database,
  order: { id: number; accountId: number },
): Promise<string> {
  const link = newWatchLink(order);
  await writeWatchLinks(tx, [link]);
  return link.token;
}

/** Writes new links (newWatchLink) in the caller's transaction, however many: every ticket holder's, say. */
export async function writeWatchLinks(tx: Database, links: WatchLink[]): Promise<void> {
  await inBatches(
    links.flatMap((link) => link.rows.rows),
    (rows) => tx.insert(watchLinks).values(rows),
  );
}

/**
 * The account a watch link signs in and the event it leads to, or null: no such link, its order is no
 * longer that account's (given away) or no longer completed (refunded, disputed), or its show was more
 * than WATCH_LINK_AFTER_SHOW_MS ago. Nothing is stored but the hash, so the token is looked up by it.
 */
export async function openWatchLink(
  db: Database,
  token: string,
  now: Date,
): Promise<{ accountId: number; eventId: number } | null> {
  const [link] = await db
    .select({ accountId: watchLinks.accountId, eventId: orders.eventId })
    .from(watchLinks)
    .innerJoin(
      orders,
      and(
        eq(orders.id, watchLinks.orderId),
        eq(orders.accountId, watchLinks.accountId),
        eq(orders.status, 'completed'),
      ),
    )
    .innerJoin(events, eq(events.id, orders.eventId))
    .where(
      and(
        eq(watchLinks.tokenHash, hashOf(token)),
        gt(events.date, new Date(now.getTime() - WATCH_LINK_AFTER_SHOW_MS)),
      ),
    );
  return link ?? null;
}
