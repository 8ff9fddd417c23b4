import type { ImageMimeType } from '@stagedoor/shared/limits';
import { customType, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The images module's tables: only this module imports them as values (eslint.config.js); others call its functions. */

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
