import { ROLES } from '@stagedoor/shared/accounts';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgEnum,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The accounts module's tables: only this module imports them as values (eslint.config.js); others call its functions. */

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
    // IANA zone the browser reported (editable in Profile): how mail and screens show this account's dates.
    timeZone: text('time_zone').notNull().default('UTC'),
    // Off from the link in any reminder mail: no more 24 h / 1 h / live-now reminders.
    remindersEnabled: boolean('reminders_enabled').notNull().default(true),
    // Marked by an operator (`npm run admin -- founding-partner <email>`): no platform fee on the first event.
    foundingPartner: boolean('founding_partner').notNull().default(false),
    // The creator's Stripe Express account, where payouts go (PAYMENT_PROVIDER=stripe).
    stripeAccountId: text('stripe_account_id'),
    stripePayoutsEnabled: boolean('stripe_payouts_enabled').notNull().default(false),
    // Set on an account made for a ticket given to an address that had none (POST /orders/{id}/transfer):
    // it holds the ticket, and opens by the watch link mailed with it, but has no password of its own
    // until its owner registers with that address or resets the password, which claims it.
    invitedAt: timestamp('invited_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex(ACCOUNT_EMAIL_INDEX).on(sql`lower(${table.email})`),
    uniqueIndex(ACCOUNT_NICKNAME_INDEX).on(sql`lower(${table.nickname})`),
  ],
);

export type AccountRow = typeof accounts.$inferSelect;

/**
 * Sessions signed out before their token expires (POST /auth/logout): a token whose id is here is
 * refused. A row serves no purpose once its token has expired, and is deleted then.
 */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    tokenId: text('token_id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('revoked_tokens_expires_at_index').on(table.expiresAt)],
);

/** Single-use password reset links: only a hash of the token is kept. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('password_resets_token_hash_unique').on(table.tokenHash)],
);
