import type { DatabaseConfig } from '../src/config';
import { createDatabase } from '../src/db/database';
import { accounts, events } from '../src/db/schema';
import { hashPassword } from '../src/modules/accounts/passwords';

/** What the bench loads: a first page of the catalogue, and one event whose stock sells out. */
const CREATORS = 10;
const EVENTS_PER_CREATOR = 4;
const BUYERS = 50;
export const STOCK = 4_000;
/**
 * What a server selling the drop runs with: its few buyer accounts play a whole crowd, each placing
 * orders far faster than one person could, which the per-account order limit would otherwise refuse.
 */
export const CROWD_ENV = { ORDER_RATE_LIMIT_PER_MINUTE: '1000000' };

export interface Seeded {
  /** The event the catalogue read loads (GET /api/events/{id}), one of the first page's. */
  catalogueEventId: number;
  dropEventId: number;
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
        // A few accounts play the whole crowd: none may be stopped by the default maximum per buyer.
        maxPerBuyer: STOCK,
        date: new Date(Date.now() + 30 * day),
      })
      .returning({ id: events.id });
    const [shown] = catalogue;
    if (!shown || !drop) throw new Error('no event seeded');
    return { catalogueEventId: shown.id, dropEventId: drop.id, buyerIds: buyers.map((buyer) => buyer.id) };
  } finally {
    await handle.close();
  }
}
