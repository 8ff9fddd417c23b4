import type { Earnings, Payout } from '@stagedoor/shared/money';
import type { Order } from '@stagedoor/shared/orders';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  authHeader,
  createCreator,
  createEvent,
  createUser,
  eventWithSales,
  getOk,
  moveEventDate,
  type TestAccount,
  storedTicketsLeft,
} from '../../../test/factories';
import { balanceIn } from '../../../test/ledger';
import { createTestApp, sameDeploymentAs } from '../../../test/test-app';
import type { App } from '../../app';
import { payouts } from '../../db/schema';
import { balanceOf, payoutOf, post, unbalancedMovements } from '../ledger/ledger';
import { payOut } from './payouts';
import { expireHolds, releaseEarnings, runSettlement } from './settlement';

const app = await createTestApp();
afterAll(() => app.close());

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const get = <T>(account: TestAccount, url: string) => getOk<T>(app, url, account.token);

/** A creator with one event of `price` that sold `quantity` tickets and started `startedAgoMs` ago. */
async function pastShow(price: number, quantity: number, startedAgoMs: number, creator?: TestAccount) {
  const show = await eventWithSales(app, { creator, event: { price }, sales: [quantity] });
  await moveEventDate(app, show.event.id, new Date(Date.now() - startedAgoMs).toISOString());
  return show;
}

describe('the settlement job', () => {
  it("leaves an event's net pending until 24 hours after it ends", async () => {
    // Ended (90 minutes after its start) 23 hours ago.
    const { creator } = await pastShow(10, 1, (23 + 1.5) * HOUR_MS);
    await runSettlement(app.deps, new Date());
    expect((await get<Earnings>(creator, '/api/earnings')).balance).toEqual({
      pending: 9,
      available: 0,
      reserved: 0,
      due: 0,
      paidOut: 0,
    });
  });

  it("releases a new creator's net less a 2 % reserve, pays it out as due, and releases the reserve after 30 days", async () => {
    const { creator } = await pastShow(50, 2, 26 * HOUR_MS);
    const now = new Date();
    await runSettlement(app.deps, now);
    // Net 90.00: 88.20 released and due (for the Stagedoor team to pay, without a provider), 1.80 reserved.
    expect((await get<Earnings>(creator, '/api/earnings')).balance).toEqual({
      pending: 0,
      available: 0,
      reserved: 1.8,
      due: 88.2,
      paidOut: 0,
    });
    expect(await get<Payout[]>(creator, '/api/payouts')).toEqual([
      { id: expect.any(Number), amount: 88.2, status: 'due', createdAt: now.toISOString(), paidAt: null },
    ]);

    await runSettlement(app.deps, new Date(now.getTime() + 29 * DAY_MS));
    expect((await get<Payout[]>(creator, '/api/payouts')).length).toBe(1);
    await runSettlement(app.deps, new Date(now.getTime() + 31 * DAY_MS));
    expect((await get<Earnings>(creator, '/api/earnings')).balance).toEqual({
      pending: 0,
      available: 0,
      reserved: 0,
      due: 90,
      paidOut: 0,
    });
    expect((await get<Payout[]>(creator, '/api/payouts')).map((payout) => payout.amount)).toEqual([
      1.8, 88.2,
    ]);
    expect(await unbalancedMovements(app.deps.db)).toEqual([]);
  });

  it('holds no reserve once the creator has 3 completed events', async () => {
    const creator = await createCreator(app);
    await pastShow(10, 1, 10 * DAY_MS, creator);
    await pastShow(10, 1, 9 * DAY_MS, creator);
    await runSettlement(app.deps, new Date());
    expect(await balanceIn(app.deps.db, creator.user.id, 'creator_reserve')).toBe(36);
    await pastShow(10, 1, 2 * DAY_MS, creator);
    await runSettlement(app.deps, new Date());
    expect(await balanceIn(app.deps.db, creator.user.id, 'creator_reserve')).toBe(36);
    expect(await balanceIn(app.deps.db, creator.user.id, 'creator_due')).toBe(3 * 900 - 36);
  });

  it('recovers a penalty from later earnings before paying anything out', async () => {
    const creator = await createCreator(app);
    const { event: cancelled } = await eventWithSales(app, {
      creator,
      event: { price: 100, date: new Date(Date.now() + 2 * HOUR_MS).toISOString() },
    });
    const response = await api(app, {
      method: 'POST',
      url: `/api/events/${cancelled.id}/cancel`,
      headers: authHeader(creator.token),
    });
    expect(response.statusCode).toBe(200);
    // Owes 5.00; the next event nets 9.00, less a 0.18 reserve: 3.82 is paid out.
    await pastShow(10, 1, 2 * DAY_MS, creator);
    await runSettlement(app.deps, new Date());
    expect((await get<Earnings>(creator, '/api/earnings')).balance).toEqual({
      pending: 0,
      available: 0,
      reserved: 0.18,
      due: 3.82,
      paidOut: 0,
    });
  });

  it('expires holds that ran out and gives their tickets back, once', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { maxTickets: 5 });
    const fan = await createUser(app);
    const now = new Date();
    const placed = await app.deps.placeOrder(
      app.deps.db,
      {
        accountId: fan.user.id,
        eventId: event.id,
        quantity: 3,
        ticketTypeId: null,
        unitPriceCents: null,
        amountCents: null,
        promoCode: null,
        idempotencyKey: null,
        requestHash: null,
      },
      { now, holdUntil: new Date(now.getTime() + 30 * 60_000) },
    );
    expect(placed?.order).toMatchObject({ status: 'pending', quantity: 3 });
    const left = () => storedTicketsLeft(app, event.id);
    expect(await left()).toBe(2);

    await expireHolds(app.deps, new Date(now.getTime() + 29 * 60_000));
    expect(await left()).toBe(2);
    await Promise.all([
      expireHolds(app.deps, new Date(now.getTime() + 31 * 60_000)),
      expireHolds(app.deps, new Date(now.getTime() + 31 * 60_000)),
    ]);
    expect(await left()).toBe(5);
    expect((await get<Order[]>(fan, '/api/orders')).map((order) => order.status)).toEqual(['expired']);
    // An expired hold is not a sale: nothing in the ledger.
    expect(await balanceIn(app.deps.db, creator.user.id, 'creator_pending')).toBe(0);
  });

  it('caps the checkouts an account may have open at 3', async () => {
    const fan = await createUser(app);
    const now = new Date();
    const hold = async () => {
      const event = await createEvent(app, await createCreator(app));
      return app.deps.placeOrder(
        app.deps.db,
        {
          accountId: fan.user.id,
          eventId: event.id,
          quantity: 1,
          ticketTypeId: null,
          unitPriceCents: null,
          amountCents: null,
          promoCode: null,
          idempotencyKey: null,
          requestHash: null,
        },
        { now, holdUntil: new Date(now.getTime() + 30 * 60_000) },
      );
    };
    for (let open = 0; open < 3; open += 1) expect(await hold()).not.toBeNull();
    expect(await hold()).toBeNull();
  });
});

/**
 * The payout step as it would be written without the creator's lock: read the available balance,
 * then record a payout of it. Two runs at once both read the same balance and both pay it.
 */
async function payOutWithoutLock(target: App, creatorId: number, now: Date): Promise<void> {
  const available = await balanceOf(target.deps.db, creatorId, 'creator_available');
  if (available <= 0) return;
  // As long as a busy database would take between the read and the write.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await target.deps.db.transaction(async (tx) => {
    const [payout] = await tx
      .insert(payouts)
      .values({ creatorId, amountCents: available, status: 'due', createdAt: now })
      .returning();
    if (payout) await post(tx, payoutOf(payout, now));
  });
}

describe('payouts with several instances running the job at once', () => {
  const RUNS = 8;

  /** Instances of the deployment: two on PostgreSQL (sharing its database), one on PGlite. */
  async function instances(): Promise<App[]> {
    if (inject('databaseDriver') !== 'postgres') return [app];
    return [app, await createTestApp(sameDeploymentAs(app))];
  }

  async function paidTo(creatorId: number): Promise<number[]> {
    const rows = await app.deps.db.select().from(payouts).where(eq(payouts.creatorId, creatorId));
    return rows.map((row) => row.amountCents);
  }

  it(`never pay a cent twice (${RUNS} whole runs at once)`, async () => {
    const { creator } = await pastShow(20, 5, 3 * DAY_MS);
    const apps = await instances();
    try {
      const now = new Date();
      await Promise.all(
        Array.from({ length: RUNS }, (_, run) => runSettlement((apps[run % apps.length] as App).deps, now)),
      );
      // Net 90.00, 1.80 of it reserved.
      expect(await paidTo(creator.user.id)).toEqual([8820]);
      expect(await balanceIn(app.deps.db, creator.user.id, 'creator_available')).toBe(0);
      expect(await balanceIn(app.deps.db, creator.user.id, 'creator_due')).toBe(8820);
    } finally {
      for (const other of apps.slice(1)) await other.close();
    }
  });

  /** The payout step alone, `RUNS` times at once across the instances, after the earnings are released. */
  async function payOutRace(payOutStep: (target: App, creatorId: number, now: Date) => Promise<void>) {
    const { creator } = await pastShow(20, 5, 3 * DAY_MS);
    const apps = await instances();
    try {
      const now = new Date();
      await releaseEarnings(app.deps.db, now);
      await Promise.all(
        Array.from({ length: RUNS }, (_, run) =>
          payOutStep(apps[run % apps.length] as App, creator.user.id, now),
        ),
      );
      return {
        paid: await paidTo(creator.user.id),
        available: await balanceIn(app.deps.db, creator.user.id, 'creator_available'),
      };
    } finally {
      for (const other of apps.slice(1)) await other.close();
    }
  }

  it(`pay a released balance once (${RUNS} payout steps at once)`, async () => {
    const result = await payOutRace((target, _creatorId, now) => payOut(target.deps, now));
    expect(result).toEqual({ paid: [8820], available: 0 });
  });

  it('control: the same payout steps without the lock pay the balance more than once', async () => {
    const result = await payOutRace(payOutWithoutLock);
    expect(result.paid.length).toBeGreaterThan(1);
    expect(result.available).toBeLessThan(0);
    console.info(
      `[payout race, control] ${inject('databaseDriver')}: ${result.paid.length} payouts of one balance`,
    );
  });
});
