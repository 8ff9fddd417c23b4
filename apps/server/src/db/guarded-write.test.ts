import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createCreator, createEvent } from '../../test/factories';
import { createTestApp } from '../../test/test-app';
import { nextIdOf, writeIfChanged, type Rows } from './guarded-write';
import { events, ledgerEntries, ledgerTransactions, outbox } from './schema';

const app = await createTestApp();
afterAll(() => app.close());
const { db } = app.deps;

const creator = await createCreator(app);
const event = await createEvent(app, creator, { maxTickets: 10 });

/** The stock step's shape: changes the event's row while `sold` is `from`, returning its id. */
const soldFrom = (from: number) =>
  db
    .update(events)
    .set({ sold: sql`${events.sold} + 1` })
    .where(sql`${events.id} = ${event.id} and ${events.sold} = ${from}`)
    .returning({ id: events.id });

const soldNow = async () =>
  (await db.select({ sold: events.sold }).from(events).where(eq(events.id, event.id)))[0]?.sold;

const mail = (key: string, data: Record<string, unknown>): Rows => ({
  table: outbox,
  rows: [{ key, toAddress: 'fan@example.test', kind: 'test', data }],
});

const storedMail = async (key: string) => (await db.select().from(outbox).where(eq(outbox.key, key)))[0];

describe('writeIfChanged', () => {
  it('writes nothing when the change changes nothing, and everything when it does', async () => {
    const sold = (await soldNow()) ?? 0;
    const key = `guarded-${randomUUID()}`;

    expect(await writeIfChanged(db, soldFrom(sold + 5), [mail(key, { n: 1 })])).toBe(false);
    expect(await storedMail(key)).toBeUndefined();
    expect(await soldNow()).toBe(sold);

    expect(await writeIfChanged(db, soldFrom(sold), [mail(key, { n: 1 })])).toBe(true);
    expect(await storedMail(key)).toMatchObject({ data: { n: 1 }, status: 'queued', attempts: 0 });
    expect(await soldNow()).toBe(sold + 1);
  });

  it('keeps every value as it was given: quotes, backslashes, other scripts, deep JSON, big numbers, instants', async () => {
    const sold = (await soldNow()) ?? 0;
    const key = `guarded-'"\\-${randomUUID()}-é漢字🎟️\n\t`;
    let deep: Record<string, unknown> = { leaf: "'; drop table outbox; --" };
    for (let depth = 0; depth < 200; depth += 1) deep = { deep, depth };
    const data = { deep, big: 2 ** 52 + 1, negative: -(2 ** 40), flag: false, none: null, list: [1, 'two'] };
    const at = new Date('2027-03-04T05:06:07.891Z');
    const [id] = await db.select({ id: nextIdOf(ledgerTransactions) }).from(sql`(select 1) as one`);
    const transactionId = id?.id ?? 0;
    const movement: Rows[] = [
      {
        table: ledgerTransactions,
        rows: [{ id: transactionId, key, kind: 'sale', creatorId: creator.user.id, eventId: event.id, at }],
      },
      {
        table: ledgerEntries,
        rows: [
          { transactionId, account: 'buyers', line: 'gross', amountCents: -(2 ** 45) },
          { transactionId, account: 'platform', line: 'gross', amountCents: 2 ** 45 },
        ],
      },
    ];

    expect(await writeIfChanged(db, soldFrom(sold), [mail(key, data), ...movement])).toBe(true);

    expect(await storedMail(key)).toMatchObject({ key, data });
    const [stored] = await db
      .select()
      .from(ledgerTransactions)
      .where(eq(ledgerTransactions.id, transactionId));
    expect(stored).toMatchObject({ key, at, orderId: null, payoutId: null });
    const entries = await db
      .select({ amount: ledgerEntries.amountCents })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.transactionId, transactionId));
    expect(entries.map((entry) => entry.amount).sort((a, b) => a - b)).toEqual([-(2 ** 45), 2 ** 45]);
  });

  it('writes thousands of rows in its one statement', async () => {
    const sold = (await soldNow()) ?? 0;
    const keys = Array.from({ length: 3000 }, () => `guarded-many-${randomUUID()}`);
    const many: Rows = {
      table: outbox,
      rows: keys.map((key, index) => ({ key, toAddress: 'fan@example.test', kind: 'test', data: { index } })),
    };

    expect(await writeIfChanged(db, soldFrom(sold), [many])).toBe(true);

    const stored = await db.select({ key: outbox.key }).from(outbox).where(inArray(outbox.key, keys));
    expect(stored).toHaveLength(keys.length);
  });

  it('applies nothing, the change included, when one of its rows is refused', async () => {
    const sold = (await soldNow()) ?? 0;
    const taken = `guarded-${randomUUID()}`;
    await db.insert(outbox).values({ key: taken, toAddress: 'fan@example.test', kind: 'test', data: {} });
    const fresh = `guarded-${randomUUID()}`;

    await expect(writeIfChanged(db, soldFrom(sold), [mail(fresh, {}), mail(taken, {})])).rejects.toThrow();

    expect(await storedMail(fresh)).toBeUndefined();
    expect(await soldNow()).toBe(sold);
  });
});
