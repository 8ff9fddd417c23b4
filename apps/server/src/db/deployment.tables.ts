import { pgTable, text } from 'drizzle-orm/pg-core';

/**
 * One row: this deployment's random name, made by its first migration. It prefixes every idempotency key
 * sent to the payment provider, so two deployments sharing a Stripe account never answer each other's.
 */
export const deployment = pgTable('deployment', {
  id: text('id').primaryKey(),
});
