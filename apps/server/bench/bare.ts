// The ceilings, in a process of their own: a bare Fastify server with none of Stagedoor's work around
// the two things it does. GET /bytes/:name answers bytes the real server answered (same size, same
// content type), straight from memory. POST /orders is the bare purchase: ONE transaction of two SQL
// statements, written by hand and run straight on the same engine, the conditional UPDATE of the stock
// and, when it took the tickets, the INSERT of the completed order; no authentication, validation,
// per-buyer limit, ledger or mail. Nothing of Stagedoor's purchase code (src/modules) runs here.
// Environment: PORT, BYTES_FILE (JSON: name -> body; unset when no read is run), and DATABASE_URL or
// DATA_DIR.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql, type SQL } from 'drizzle-orm';
import Fastify from 'fastify';
import { loadConfig } from '../src/config';
import { createDatabase, type Database } from '../src/db/database';

const bytes = (
  process.env.BYTES_FILE ? JSON.parse(readFileSync(process.env.BYTES_FILE, 'utf8')) : {}
) as Record<string, string>;
// The server's own reading of DATA_DIR / DATABASE_URL (the secret is required, and unused here).
const database = await createDatabase(
  loadConfig({ ...process.env, JWT_SECRET: randomBytes(32).toString('base64url') }).database,
);
const app = Fastify();

/** Both drivers (node-postgres, PGlite) answer a raw statement with its rows. */
async function rowsOf<Row>(tx: Database, statement: SQL): Promise<Row[]> {
  return ((await tx.execute(statement)) as { rows: Row[] }).rows;
}

/** The bare purchase: the order's id, or null when the stock had not `quantity` tickets left. */
function purchase(accountId: number, eventId: number, quantity: number): Promise<number | null> {
  return database.db.transaction(async (tx) => {
    // An order names its ticket type (the event's one, here), read in the same statement.
    const [taken] = await rowsOf<{ price_cents: number; type_id: number }>(
      tx,
      sql`UPDATE events SET sold = sold + ${quantity}
          WHERE id = ${eventId} AND sold + ${quantity} <= max_tickets
          RETURNING price_cents,
            (SELECT id FROM ticket_types WHERE event_id = events.id ORDER BY position LIMIT 1) AS type_id`,
    );
    if (!taken) return null;
    const [order] = await rowsOf<{ id: number }>(
      tx,
      sql`INSERT INTO orders (account_id, event_id, ticket_type_id, quantity, unit_price_cents, total_cents,
                              status, created_at, completed_at)
          VALUES (${accountId}, ${eventId}, ${taken.type_id}, ${quantity}, ${taken.price_cents},
                  ${taken.price_cents * quantity}, 'completed', now(), now())
          RETURNING id`,
    );
    return order?.id ?? null;
  });
}

app.get<{ Params: { name: string } }>('/bytes/:name', async (request, reply) =>
  reply.type('application/json; charset=utf-8').send(bytes[request.params.name]),
);

app.post<{ Body: { eventId: number; quantity: number }; Headers: { 'x-buyer': string } }>(
  '/orders',
  async (request, reply) => {
    const id = await purchase(
      Number(request.headers['x-buyer']),
      request.body.eventId,
      request.body.quantity,
    );
    return reply.code(id === null ? 409 : 201).send(id === null ? {} : { id });
  },
);

app.addHook('onClose', () => database.close());
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
console.info('ready');
