/**
 * Every table, for drizzle (migrations are generated from this file: npm run db:generate) and for tests.
 * Each table is defined in, and belongs to, its module's `*.tables.ts`: only that module's files import it
 * as a value (eslint.config.js); the others reach its rows through the module's functions.
 */
export * from '../live/chat.tables';
export * from '../modules/analytics/analytics.tables';
export * from '../modules/accounts/accounts.tables';
export * from '../modules/attendees/attendees.tables';
export * from '../modules/events/events.tables';
export * from '../modules/images/images.tables';
export * from '../modules/ledger/ledger.tables';
export * from '../modules/mail/mail.tables';
export * from '../modules/money/money.tables';
export * from '../modules/orders/orders.tables';
export * from './deployment.tables';
export * from '../modules/replays/replays.tables';
export * from '../modules/orders/waitlist.tables';
