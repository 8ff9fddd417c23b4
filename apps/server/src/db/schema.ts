import { ROLES } from '@stagedoor/shared/auth';
import type { ImageMimeType } from '@stagedoor/shared/limits';
import { sql } from 'drizzle-orm';
import {
  customType,
  integer,
  pgEnum,
  pgTable,
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
