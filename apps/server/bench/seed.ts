import type { DatabaseConfig } from '../src/config';
import { DEFAULT_TICKET_TYPE_NAME } from '@stagedoor/shared/events';
import { sql } from 'drizzle-orm';
import { createDatabase, type Database } from '../src/db/database';
import { accounts, events, promoCodes, ticketTypes } from '../src/db/schema';
import { hashPassword } from '../src/modules/accounts/passwords';

/** What the bench loads: a first page of the catalogue, and one event whose stock sells out. */
const CREATORS = 10;
const EVENTS_PER_CREATOR = 4;
/** The drop's stock, sold out by `DROP_ATTEMPTS` purchases of one ticket each, `DROP_IN_FLIGHT` at a time. */
export const STOCK = 1_000;
export const DROP_ATTEMPTS = 2_000;
export const DROP_IN_FLIGHT = 100;
/** One buyer per connection of the drop. */
const BUYERS = DROP_IN_FLIGHT;
/**
 * What a server selling the drop runs with: its buyer accounts play a whole crowd, each placing
 * `DROP_ATTEMPTS / BUYERS` (20) orders within seconds, which the per-account order limit (20 a minute by
 * default) would otherwise start refusing. Payments: none (the default), so every order completes at once.
 */
export const CROWD_ENV = { ORDER_RATE_LIMIT_PER_MINUTE: '1000000', PAYMENT_PROVIDER: 'none' };

/**
 * Events written straight into the table sell as events made through the API do: each gets its one
 * ticket type, at its price and stock (what migration 0019_ticket_options did for every event before).
 */
export async function giveSeededEventsTheirType(db: Database): Promise<void> {
  await db.execute(sql`insert into ${ticketTypes} (event_id, position, name, price_cents, max_tickets, sold)
    select e.id, 0, ${DEFAULT_TICKET_TYPE_NAME}, e.price_cents, e.max_tickets, e.sold from ${events} e
    where not exists (select 1 from ${ticketTypes} t where t.event_id = e.id)`);
}

/** The drop over two types: each half the stock, with a half-off code good for a tenth of it. */
export const TIERED_DROP = {
  types: [
    { name: 'Early bird', priceCents: 1500 },
    { name: 'Standard', priceCents: 2500 },
  ],
  code: 'HALFOFF',
  codeUses: STOCK / 10,
} as const;

export interface Seeded {
  /** The event the catalogue read loads (GET /api/events/{id}), one of the first page's. */
  catalogueEventId: number;
  dropEventId: number;
  /** The drop over two types with a code (TIERED_DROP), and its types' ids in order. */
  tieredDrop: { eventId: number; typeIds: number[] };
  buyerIds: number[];
}

/** Writes the bench's accounts and events straight into a fresh database, before any server opens it. */
export async function seed(config: DatabaseConfig): Promise<Seeded> {
  const handle = await createDatabase(config);
  try {
    const { db } = handle;
    const passwordHash = await hashPassword('bench-password');
    const person = (role: 'creator' | 'user', n: number) => ({
      email: `${role}-${n}@bench.test`,
      passwordHash,
      role,
      firstName: role === 'creator' ? 'Creator' : 'Fan',
      lastName: String(n),
      nickname: `${role}${n}`,
    });
    const creators = await db
      .insert(accounts)
      .values(Array.from({ length: CREATORS }, (_, n) => person('creator', n)))
      .returning({ id: accounts.id });
    const buyers = await db
      .insert(accounts)
      .values(Array.from({ length: BUYERS }, (_, n) => person('user', n)))
      .returning({ id: accounts.id });
    const day = 24 * 3600_000;
    const catalogue = await db
      .insert(events)
      .values(
        creators.flatMap((creator, c) =>
          Array.from({ length: EVENTS_PER_CREATOR }, (_, n) => ({
            creatorId: creator.id,
            name: `Live set ${c}-${n}`,
            description: `An evening of music and talk, number ${n} of creator ${c}. `.repeat(4),
            image: null,
            priceCents: 1500 + 100 * n,
            maxTickets: 500,
            date: new Date(Date.now() + (2 + c + n * CREATORS) * day),
          })),
        ),
      )
      .returning({ id: events.id });
    const [creator] = creators;
    if (!creator) throw new Error('no creator seeded');
    const [drop] = await db
      .insert(events)
      .values({
        creatorId: creator.id,
        name: 'The ticket drop',
        description: 'Everyone wants in.',
        priceCents: 2500,
        maxTickets: STOCK,
        // A hundred accounts play the whole crowd: none may be stopped by the default maximum per buyer
        // (each sends 20 purchases and may get them all).
        maxPerBuyer: STOCK,
        date: new Date(Date.now() + 30 * day),
      })
      .returning({ id: events.id });
    await giveSeededEventsTheirType(db);
    const [tiered] = await db
      .insert(events)
      .values({
        creatorId: creator.id,
        name: 'The drop with two kinds of ticket',
        description: 'Early birds and the rest, and a code.',
        priceCents: TIERED_DROP.types[0].priceCents,
        maxTickets: STOCK,
        maxPerBuyer: STOCK,
        date: new Date(Date.now() + 31 * day),
      })
      .returning({ id: events.id });
    if (!tiered) throw new Error('no tiered drop seeded');
    const types = await db
      .insert(ticketTypes)
      .values(
        TIERED_DROP.types.map((type, position) => ({
          eventId: tiered.id,
          position,
          name: type.name,
          priceCents: type.priceCents,
          maxTickets: STOCK / 2,
        })),
      )
      .returning({ id: ticketTypes.id });
    await db
      .insert(promoCodes)
      .values({ eventId: tiered.id, code: TIERED_DROP.code, percentOff: 50, maxUses: TIERED_DROP.codeUses });
    const [shown] = catalogue;
    if (!shown || !drop) throw new Error('no event seeded');
    return {
      catalogueEventId: shown.id,
      dropEventId: drop.id,
      tieredDrop: { eventId: tiered.id, typeIds: types.map(({ id }) => id) },
      buyerIds: buyers.map((buyer) => buyer.id),
    };
  } finally {
    await handle.close();
  }
}
