import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** The mail module's tables: only this module imports them as values (eslint.config.js); others call its functions. */

export const OUTBOX_STATUSES = ['queued', 'sent', 'failed'] as const;

/**
 * Mail waiting to go out, queued in the same transaction as what caused it (decision 0021): its kind and
 * the facts it tells, as they were then; it is rendered when sent. `key` names the message
 * (`receipt:order:7`, `reminder-24h:event:3:account:5`), so it is queued once however often its cause is
 * replayed. The worker leases due rows with FOR UPDATE SKIP LOCKED, so instances never send one twice.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    toAddress: text('to_address').notNull(),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    // When the message may be tried (again); a worker sending it pushes this out as its lease.
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('outbox_key_unique').on(table.key),
    index('outbox_status_next_attempt_at_index').on(table.status, table.nextAttemptAt),
  ],
);

export type OutboxRow = typeof outbox.$inferSelect;
