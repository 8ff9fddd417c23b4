import { getTableColumns } from 'drizzle-orm';
import { views } from '../../db/views';
import { orders } from './orders.tables';

// Never the purchase's idempotency key nor its hash: they answer the buyer's own retries only.
const { idempotencyKey: _key, requestHash: _hash, ...readable } = getTableColumns(orders);

/** Orders as other modules read them in their own queries (db/views.ts), under the table's name. */
export const ordersView = views.select(readable).from(orders).as('orders');
