import { randomUUID } from 'node:crypto';
import type { WatchLinkResponse } from '@stagedoor/shared/accounts';
import type { Order } from '@stagedoor/shared/orders';
import { eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  getOk,
  type TestAccount,
} from '../../../test/factories';
import { appWithMailbox, watchTokenIn } from '../../../test/mailbox';
import { createTestApp } from '../../../test/test-app';
import { events, orders, ticketGifts } from '../../db/schema';
import type { App } from '../../app';
import type { GiveOrder } from './orders.repo';

const { app, mailTo } = await appWithMailbox();

const HOUR_MS = 3_600_000;
const newAddress = () => `friend-${randomUUID().slice(0, 8)}@example.test`;

const give = (giver: TestAccount, orderId: number, email: unknown) =>
  api(app, {
    method: 'POST',
    url: `/api/orders/${orderId}/transfer`,
    headers: authHeader(giver.token),
    payload: { email },
  });

const ticketsOf = async (account: { token: string }, eventId: number) =>
  (await getOk<{ tickets: number }>(app, `/api/orders/summary?eventId=${eventId}`, account.token)).tickets;

const openLink = (token: string) =>
  api(app, { method: 'POST', url: '/api/auth/watch-link', payload: { token } });

async function paidOrder(hoursAhead = 72, quantity = 2) {
  const creator = await createCreator(app);
  const event = await createEvent(app, creator, {
    name: 'Gift Show',
    date: new Date(Date.now() + hoursAhead * HOUR_MS).toISOString(),
  });
  const giver = await createUser(app, { firstName: 'Ana', lastName: 'Lima' });
  const order = await buyTicketsOk(app, giver, event.id, quantity);
  return { creator, event, giver, order };
}

describe('POST /api/orders/{id}/transfer', () => {
  it("moves the tickets to the friend's account at once: their seats, a watch link for them, none left for the giver", async () => {
    const { event, giver, order } = await paidOrder();
    const receipt = await mailTo(giver.email, 'Your tickets for Gift Show');
    const giverLink = watchTokenIn(receipt);
    const friend = await createUser(app, { firstName: 'Bo', lastName: 'Chen' });

    const given = await give(giver, order.id, friend.email.toUpperCase());
    expect(given.statusCode, given.body).toBe(204);
    expect(await ticketsOf(giver, event.id)).toBe(0);
    expect(await ticketsOf(friend, event.id)).toBe(2);
    expect((await openLink(giverLink)).statusCode).toBe(400);

    const gift = await mailTo(friend.email, 'Ana Lima gave you 2 tickets to Gift Show');
    expect(gift.text).not.toContain('sign up');
    const opened = await openLink(watchTokenIn(gift));
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json<WatchLinkResponse>()).toMatchObject({
      eventId: event.id,
      user: { id: friend.user.id },
    });

    // My Tickets: the giver sees what they gave and to whom, the friend whom it came from.
    expect(await getOk<Order[]>(app, '/api/orders', giver.token)).toMatchObject([
      { id: order.id, givenTo: friend.email, giftFrom: null },
    ]);
    expect(await getOk<Order[]>(app, '/api/orders', friend.token)).toMatchObject([
      { id: order.id, givenTo: null, giftFrom: 'Ana Lima' },
    ]);
    // The giver cannot give it again.
    expect((await give(giver, order.id, newAddress())).statusCode).toBe(404);
  });

  it('to an address with no account, makes one the watch link opens and a sign-up with that address claims', async () => {
    const { event, giver, order } = await paidOrder(72, 1);
    const address = newAddress();
    expect((await give(giver, order.id, address)).statusCode).toBe(204);
    const gift = await mailTo(address, 'Ana Lima gave you a ticket to Gift Show');
    expect(gift.text).toContain('sign up with this email address');
    const opened = await openLink(watchTokenIn(gift));
    expect(opened.statusCode, opened.body).toBe(200);
    const invited = opened.json<WatchLinkResponse>();
    expect(await ticketsOf({ token: invited.access_token }, event.id)).toBe(1);

    // The address's owner cannot log in before signing up: the account has no password of theirs.
    const login = await api(app, {
      method: 'POST',
      url: '/api/auth/login/user',
      payload: { email: address, password: 'correct-horse-battery' },
    });
    expect(login.statusCode).toBe(401);
    // A creator sign-up with the address is refused; a fan sign-up claims the account and its ticket.
    const asCreator = await api(app, {
      method: 'POST',
      url: '/api/auth/register/creator',
      payload: { firstName: 'Dee', lastName: 'Park', email: address, password: 'correct-horse-battery' },
    });
    expect(asCreator.statusCode).toBe(409);
    const owner = await createUser(app, { firstName: 'Dee', lastName: 'Park', email: address });
    expect(owner.user).toMatchObject({ id: invited.user.id, firstName: 'Dee', lastName: 'Park' });
    expect(await ticketsOf(owner, event.id)).toBe(1);
    // The session the link opened ended with the claim; the link itself still opens the show.
    const before = await api(app, {
      method: 'GET',
      url: '/api/auth/verify-token',
      headers: authHeader(invited.access_token),
    });
    expect(before.json()).toMatchObject({ valid: false });
    expect((await openLink(watchTokenIn(gift))).statusCode).toBe(200);
  });

  it('refuses what is not the caller’s to give, after the start, to themselves or past the per-fan limit', async () => {
    const { event, giver, order } = await paidOrder(72, 2);
    const stranger = await createUser(app);
    expect((await give(stranger, order.id, newAddress())).statusCode).toBe(404);
    expect((await give(giver, 2_000_000_000, newAddress())).statusCode).toBe(404);
    const unauthenticated = await api(app, {
      method: 'POST',
      url: `/api/orders/${order.id}/transfer`,
      payload: { email: newAddress() },
    });
    expect(unauthenticated.statusCode).toBe(401);

    for (const [email, message] of [
      [giver.email, 'These tickets are already yours'],
      ['not-an-address', expect.any(String)],
      ['', expect.any(String)],
      [`${'x'.repeat(400)}@example.test`, expect.any(String)],
      [{ $ne: null }, expect.any(String)],
    ] as const) {
      const refused = await give(giver, order.id, email);
      expect(refused.statusCode, JSON.stringify(email)).toBe(400);
      expect(refused.json()).toMatchObject({ fields: { email: message } });
    }

    // DEFAULT_MAX_PER_BUYER (10) per fan, when the stock allows: a friend holding 9 cannot take 2 more.
    const friend = await createUser(app);
    await buyTicketsOk(app, friend, event.id, 9);
    const overLimit = await give(giver, order.id, friend.email);
    expect(overLimit.statusCode).toBe(409);
    expect(overLimit.json()).toMatchObject({
      fields: { email: 'They would hold more than the 10 tickets one fan may have for this event' },
    });

    await app.deps.db
      .update(events)
      .set({ date: new Date(Date.now() - 60_000) })
      .where(eq(events.id, event.id));
    const started = await give(giver, order.id, newAddress());
    expect(started.statusCode).toBe(409);
    expect(started.json()).toMatchObject({ message: 'Tickets can only be given before the show starts' });
    expect(await ticketsOf(giver, event.id)).toBe(2);
  });

  it('refuses a refunded order', async () => {
    const { creator, event, giver, order } = await paidOrder();
    const cancelled = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}/cancel`,
      headers: authHeader(creator.token),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const refused = await give(giver, order.id, newAddress());
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: 'Only paid tickets can be given' });
  });
});

/**
 * The gift the conditional UPDATE replaces, for the control: read the order, check it is the giver's,
 * then move it, each a statement of its own. Between the read and the move, other gifts read the same
 * giver, and each moves the order again.
 */
const readThenWriteGiveOrder: GiveOrder = async (tx, orderId, fromAccountId, toAccountId) => {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  if (order?.accountId !== fromAccountId || order.status !== 'completed') return null;
  // The time a slower query or a busy server would take between the read and the write.
  await new Promise((resolve) => setTimeout(resolve, 5));
  await tx.update(orders).set({ accountId: toAccountId }).where(eq(orders.id, orderId));
  const [gift] = await tx
    .insert(ticketGifts)
    .values({ orderId, fromAccountId, toAccountId })
    .returning({ giftId: ticketGifts.id });
  return gift ?? null;
};

describe('ten gifts of one order at once', () => {
  /** Ten friends asked for at once: the answers, and the tickets each friend then holds. */
  async function race(target: App) {
    const creator = await createCreator(target);
    const event = await createEvent(target, creator, {
      date: new Date(Date.now() + 72 * HOUR_MS).toISOString(),
    });
    const giver = await createUser(target);
    const order = await buyTicketsOk(target, giver, event.id, 2);
    const friends = await Promise.all(Array.from({ length: 10 }, () => createUser(target)));
    const answers = await Promise.all(
      friends.map((friend) =>
        api(target, {
          method: 'POST',
          url: `/api/orders/${order.id}/transfer`,
          headers: authHeader(giver.token),
          payload: { email: friend.email },
        }),
      ),
    );
    const gifts = await target.deps.db.select().from(ticketGifts).where(eq(ticketGifts.orderId, order.id));
    return { answers: answers.map((answer) => answer.statusCode), gifts, order, friends };
  }

  it('give it once: one 204, nine 404, and the one friend answered holds it', async () => {
    const { answers, gifts, order, friends } = await race(app);
    expect(answers.sort()).toEqual([204, ...Array<number>(9).fill(404)]);
    expect(gifts).toHaveLength(1);
    const [stored] = await app.deps.db.select().from(orders).where(eq(orders.id, order.id));
    expect(stored?.accountId).toBe(gifts[0]?.toAccountId);
    expect(friends.map((friend) => friend.user.id)).toContain(stored?.accountId);
  });

  it('control: a read-then-write gift gives it more than once on PostgreSQL', async () => {
    const control = await createTestApp({}, { giveOrder: readThenWriteGiveOrder });
    try {
      const { answers, gifts } = await race(control);
      const given = answers.filter((status) => status === 204).length;
      expect(gifts).toHaveLength(given);
      // PGlite runs one transaction at a time, so even the unguarded gifts cannot overlap there.
      if (inject('databaseDriver') === 'postgres') expect(given).toBeGreaterThan(1);
      else expect(given).toBe(1);
    } finally {
      await control.close();
    }
  }, 60_000);
});

describe('GET /api/orders (My Tickets)', () => {
  it('lists the shows to come (or on) first, soonest first, then those that ended, latest first', async () => {
    const creator = await createCreator(app);
    const fan = await createUser(app);
    const at = async (name: string, hoursFromNow: number) => {
      const event = await createEvent(app, creator, {
        name,
        date: new Date(Date.now() + 24 * HOUR_MS).toISOString(),
      });
      await buyTicketsOk(app, fan, event.id, 1);
      await app.deps.db
        .update(events)
        .set({ date: new Date(Date.now() + hoursFromNow * HOUR_MS) })
        .where(eq(events.id, event.id));
    };
    // Bought in an order that is none of the answers below.
    await at('Next month', 24 * 30);
    await at('Ended last week', -24 * 7);
    await at('On now', -0.5);
    await at('Tomorrow', 24);
    await at('Ended yesterday', -24);
    const names = (await getOk<Order[]>(app, '/api/orders', fan.token)).map((order) => order.event.name);
    expect(names).toEqual(['On now', 'Tomorrow', 'Next month', 'Ended yesterday', 'Ended last week']);
    const [firstPage, secondPage] = [
      await getOk<Order[]>(app, '/api/orders?limit=2&offset=0', fan.token),
      await getOk<Order[]>(app, '/api/orders?limit=2&offset=2', fan.token),
    ];
    expect([...firstPage, ...secondPage].map((order) => order.event.name)).toEqual(names.slice(0, 4));
  });
});
