import { and, desc, eq, gte, isNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../db/database';
import { accountView } from '../modules/accounts/accounts.views';
import { chatMessages, chatMutes, type ChatMessageRow } from './chat.tables';
import type { LiveAccount } from './context';

const authors = accountView('author');

/** A stored message and its author, as the chat shows it. */
export interface ChatMessageWithAuthor {
  message: ChatMessageRow;
  author: LiveAccount;
}

const selectWithAuthor = (db: Database) =>
  db
    .select({
      message: chatMessages,
      author: {
        id: authors.id,
        role: authors.role,
        firstName: authors.firstName,
        lastName: authors.lastName,
        nickname: authors.nickname,
        profileImage: authors.profileImage,
      },
    })
    .from(chatMessages)
    .innerJoin(authors, eq(authors.id, chatMessages.accountId));

export async function insertChatMessage(
  db: Database,
  message: Pick<ChatMessageRow, 'eventId' | 'accountId' | 'content'>,
): Promise<ChatMessageRow> {
  const [row] = await db.insert(chatMessages).values(message).returning();
  if (!row) throw new Error('insert into chat_messages returned no row');
  return row;
}

/** The last `limit` messages of the event that were not deleted, oldest first. */
export async function recentChatMessages(
  db: Database,
  eventId: number,
  limit: number,
): Promise<ChatMessageWithAuthor[]> {
  const newestFirst = await selectWithAuthor(db)
    .where(and(eq(chatMessages.eventId, eventId), isNull(chatMessages.deletedAt)))
    .orderBy(desc(chatMessages.id))
    .limit(limit);
  return newestFirst.reverse();
}

/** Up to `limit` messages written in the event's chat from `from` to `to` and not deleted, in order. */
export function chatMessagesBetween(
  db: Database,
  eventId: number,
  from: Date,
  to: Date,
  limit: number,
): Promise<ChatMessageWithAuthor[]> {
  return selectWithAuthor(db)
    .where(
      and(
        eq(chatMessages.eventId, eventId),
        isNull(chatMessages.deletedAt),
        gte(chatMessages.createdAt, from),
        lte(chatMessages.createdAt, to),
      ),
    )
    .orderBy(chatMessages.id)
    .limit(limit);
}

/**
 * The messages written in the event's chat, from `span.from` to `span.to` or ever, deleted ones too
 * (they were written).
 */
export async function countChatMessages(
  db: Database,
  eventId: number,
  span?: { from: Date; to: Date },
): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(chatMessages)
    .where(
      and(
        eq(chatMessages.eventId, eventId),
        span && gte(chatMessages.createdAt, span.from),
        span && lte(chatMessages.createdAt, span.to),
      ),
    );
  return row?.count ?? 0;
}

/** Hides the message from the chat; false when the event has no such message. Deleting twice is fine. */
export async function softDeleteChatMessage(
  db: Database,
  eventId: number,
  messageId: number,
): Promise<boolean> {
  const deleted = await db
    .update(chatMessages)
    .set({ deletedAt: sql`coalesce(${chatMessages.deletedAt}, now())` })
    .where(and(eq(chatMessages.id, messageId), eq(chatMessages.eventId, eventId)))
    .returning({ id: chatMessages.id });
  return deleted.length > 0;
}

export async function isMuted(db: Database, eventId: number, accountId: number): Promise<boolean> {
  const [row] = await db
    .select({ accountId: chatMutes.accountId })
    .from(chatMutes)
    .where(and(eq(chatMutes.eventId, eventId), eq(chatMutes.accountId, accountId)));
  return row !== undefined;
}

/** Muting an account already muted changes nothing. */
export async function muteAccount(db: Database, eventId: number, accountId: number): Promise<void> {
  await db.insert(chatMutes).values({ eventId, accountId }).onConflictDoNothing();
}
