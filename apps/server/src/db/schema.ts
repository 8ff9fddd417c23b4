import { ROLES } from '@stagedoor/shared/auth';
import { ORDER_STATUSES } from '@stagedoor/shared/orders';
import type { ImageMimeType } from '@stagedoor/shared/limits';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgEnum,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const ACCOUNT_EMAIL_INDEX = 'accounts_email_unique';
export const ACCOUNT_NICKNAME_INDEX = 'accounts_nickname_unique';

export const roleEnum = pgEnum('account_role', ROLES);

export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: roleEnum('role').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    nickname: text('nickname').notNull(),
    biography: text('biography'),
    headerImage: text('header_image'),
    profileImage: text('profile_image'),
    // Bumped by a password change: every token carrying an older version is refused.
    tokenVersion: integer('token_version').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex(ACCOUNT_EMAIL_INDEX).on(sql`lower(${table.email})`),
    uniqueIndex(ACCOUNT_NICKNAME_INDEX).on(sql`lower(${table.nickname})`),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;

// node-postgres hands bytea back as a Buffer, PGlite as a Uint8Array: callers always get a Buffer.
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/** Image bytes for IMAGE_STORAGE=database, so several server instances share one set of images. */
export const images = pgTable('images', {
  name: text('name').primaryKey(),
  mime: text('mime').$type<ImageMimeType>().notNull(),
  data: bytea('data').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    creatorId: integer('creator_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    description: text('description').notNull(),
    image: text('image'),
    priceCents: integer('price_cents').notNull(),
    maxTickets: integer('max_tickets').notNull(),
    // Only ever changed by the purchase's conditional UPDATE (orders.repo.ts takeTickets).
    sold: integer('sold').notNull().default(0),
    date: timestamp('date', { withTimezone: true }).notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('events_price_cents_check', sql`${table.priceCents} >= 0`),
    check('events_max_tickets_check', sql`${table.maxTickets} >= 1`),
    // A second line of defence: the purchase's conditional UPDATE is what keeps sales within stock.
    check('events_sold_check', sql`${table.sold} >= 0 AND ${table.sold} <= ${table.maxTickets}`),
    index('events_is_active_date_index').on(table.isActive, table.date),
    index('events_creator_id_index').on(table.creatorId),
  ],
);

export type EventRow = typeof events.$inferSelect;

export const ORDER_IDEMPOTENCY_INDEX = 'orders_account_id_idempotency_key_unique';

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    // No cascade: an event with orders has sold tickets, and such an event is never deleted.
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id),
    quantity: integer('quantity').notNull(),
    unitPriceCents: integer('unit_price_cents').notNull(),
    // Price times quantity can pass the 32-bit range (100 000 tickets at $100 000).
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('completed'),
    idempotencyKey: text('idempotency_key'),
    // What the keyed request asked for, so a key reused for another purchase is told apart from a retry.
    requestHash: text('request_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('orders_quantity_check', sql`${table.quantity} > 0`),
    // Rows without a key never conflict: PostgreSQL treats NULLs as distinct.
    uniqueIndex(ORDER_IDEMPOTENCY_INDEX).on(table.accountId, table.idempotencyKey),
    index('orders_account_id_created_at_index').on(table.accountId, table.createdAt),
    index('orders_event_id_index').on(table.eventId),
  ],
);

export type OrderRow = typeof orders.$inferSelect;

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: serial('id').primaryKey(),
    // An event is only ever deleted before it sells a ticket, when its creator alone could have chatted.
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    content: text('content').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // Set by the event's creator: the message leaves the history but stays on record.
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  // The history is the last messages of one event by id.
  (table) => [index('chat_messages_event_id_id_index').on(table.eventId, table.id)],
);

export type ChatMessageRow = typeof chatMessages.$inferSelect;

/** Accounts the event's creator muted in that event's chat. */
export const chatMutes = pgTable(
  'chat_mutes',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.accountId] })],
);
