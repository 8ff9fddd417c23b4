// The ceilings, in a process of their own: a bare Fastify server with none of Stagedoor's work around
// the two things it does. GET /bytes/:name answers bytes the real server answered (same size, same
// content type), straight from memory; POST /orders runs the purchase's transaction (placeOrder, the same
// function the server calls) on the same engine, with no authentication, validation or serialisation.
// Environment: PORT, BYTES_FILE (JSON: name -> body), and DATABASE_URL or DATA_DIR.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { loadConfig } from '../src/config';
import { createDatabase } from '../src/db/database';
import { placeOrder } from '../src/modules/orders/orders.repo';

const bytes = JSON.parse(readFileSync(process.env.BYTES_FILE ?? '', 'utf8')) as Record<string, string>;
// The server's own reading of DATA_DIR / DATABASE_URL (the secret is required, and unused here).
const database = await createDatabase(
  loadConfig({ ...process.env, JWT_SECRET: randomBytes(32).toString('base64url') }).database,
);
const app = Fastify();

app.get<{ Params: { name: string } }>('/bytes/:name', async (request, reply) =>
  reply.type('application/json; charset=utf-8').send(bytes[request.params.name]),
);

app.post<{ Body: { eventId: number; quantity: number }; Headers: { 'x-buyer': string } }>(
  '/orders',
  async (request, reply) => {
    const placed = await placeOrder(
      database.db,
      {
        accountId: Number(request.headers['x-buyer']),
        eventId: request.body.eventId,
        quantity: request.body.quantity,
        unitPriceCents: null,
        idempotencyKey: null,
        requestHash: null,
      },
      { now: new Date(), holdUntil: null },
    );
    return reply.code(placed ? 201 : 409).send(placed ? { id: placed.order.id } : {});
  },
);

app.addHook('onClose', () => database.close());
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
console.info('ready');
