import type { ErrorBody } from '@stagedoor/shared/errors';
import type { Event } from '@stagedoor/shared/events';
import type { Cancellation, Earnings } from '@stagedoor/shared/money';
import type { Order } from '@stagedoor/shared/orders';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  getOk,
  daysFromNow,
  eventWithSales,
  moveEventDate,
  type TestAccount,
} from '../../../test/factories';
import { balanceIn } from '../../../test/ledger';
import { unbalancedMovements } from '../ledger/ledger';
import { createTestApp } from '../../../test/test-app';
import { runAdminCommand } from '../../admin-commands';
import { runSettlement } from './settlement';

const app = await createTestApp();
afterAll(() => app.close());

const HOUR_MS = 3_600_000;

const get = <T>(account: TestAccount, url: string) => getOk<T>(app, url, account.token);

const earnings = (creator: TestAccount) => get<Earnings>(creator, '/api/earnings');
const eventRow = async (creator: TestAccount, eventId: number) =>
  (await earnings(creator)).events.find((row) => row.eventId === eventId);

function buy(buyer: TestAccount, payload: Record<string, unknown>) {
  return api(app, { method: 'POST', url: '/api/orders', headers: authHeader(buyer.token), payload });
}

function cancel(account: TestAccount, eventId: number) {
  return api(app, {
    method: 'POST',
    url: `/api/events/${eventId}/cancel`,
    headers: authHeader(account.token),
  });
}

const ticketsLeft = async (eventId: number) =>
  (await api(app, { method: 'GET', url: `/api/events/${eventId}` })).json<Event>().ticketsLeft;

describe('platform fee', () => {
  it("takes the Terms' 10 % of the gross and owes the creator the rest until the payout date", async () => {
    const { creator, event } = await eventWithSales(app, { event: { price: 12.5 }, sales: [2, 1] });
    expect(await eventRow(creator, event.id)).toMatchObject({
      ticketsSold: 3,
      gross: 37.5,
      platformFee: 3.75,
      processorFee: 0,
      refunded: 0,
      penalty: 0,
      net: 33.75,
    });
    expect((await earnings(creator)).balance).toEqual({
      pending: 33.75,
      available: 0,
      reserved: 0,
      due: 0,
      paidOut: 0,
    });
    expect(await unbalancedMovements(app.deps.db)).toEqual([]);
  });

  it("rounds each order's fee to the nearest cent", async () => {
    const { creator, event } = await eventWithSales(app, { event: { price: 0.55 }, sales: [1, 3] });
    // 5.5 cents rounds to 6, 16.5 cents to 17.
    expect(await eventRow(creator, event.id)).toMatchObject({ gross: 2.2, platformFee: 0.23, net: 1.97 });
  });

  it('charges a founding partner nothing on their first event, then 10 %', async () => {
    // Another creator's event, made before: the first event is the founding partner's own first.
    await createEvent(app, await createCreator(app), { price: 20 });
    const creator = await createCreator(app);
    const first = await createEvent(app, creator, { price: 20 });
    const second = await createEvent(app, creator, { price: 20 });
    expect(await runAdminCommand(app, ['founding-partner', creator.email.toUpperCase()])).toContain(
      'is a founding partner',
    );
    const fan = await createUser(app);
    await buyTicketsOk(app, fan, first.id, 1);
    await buyTicketsOk(app, fan, second.id, 1);
    expect(await eventRow(creator, first.id)).toMatchObject({ gross: 20, platformFee: 0, net: 20 });
    expect(await eventRow(creator, second.id)).toMatchObject({ gross: 20, platformFee: 2, net: 18 });
  });

  it('refuses to mark an unknown email or a fan as a founding partner', async () => {
    const fan = await createUser(app);
    await expect(runAdminCommand(app, ['founding-partner', fan.email])).rejects.toThrow(
      `No creator account has the email ${fan.email}`,
    );
    await expect(runAdminCommand(app, ['founding-partner'])).rejects.toThrow('Operator commands');
  });
});

describe('fair sales', () => {
  it('refuses a purchase at a price the buyer did not see, and takes nothing', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { price: 12.5, maxTickets: 10 });
    const raise = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}`,
      headers: authHeader(creator.token),
      payload: { price: 15 },
    });
    expect(raise.statusCode).toBe(200);
    const fan = await createUser(app);
    const stale = await buy(fan, { eventId: event.id, quantity: 2, unitPrice: 12.5 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json<ErrorBody>()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'The price of this event is now $15.00',
      fields: { unitPrice: 'The price of this event is now $15.00' },
    });
    expect(await ticketsLeft(event.id)).toBe(10);
    expect(await get<Order[]>(fan, '/api/orders')).toEqual([]);
    const fresh = await buy(fan, { eventId: event.id, quantity: 2, unitPrice: 15 });
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json<Order>()).toMatchObject({ unitPrice: 15, totalAmount: 30 });
  });

  it("refuses a creator's purchase of their own event with 403", async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const response = await buy(creator, { eventId: event.id, quantity: 1 });
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorBody>().message).toBe('You cannot buy tickets to your own event');
    expect(await ticketsLeft(event.id)).toBe(100);
  });

  it("keeps each buyer within the event's maximum per buyer", async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { maxTickets: 10, maxPerBuyer: 2 });
    expect(event.maxPerBuyer).toBe(2);
    const fan = await createUser(app);
    const tooMany = await buy(fan, { eventId: event.id, quantity: 3 });
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json<ErrorBody>().fields).toEqual({
      quantity: 'You can get 2 more tickets for this event',
    });
    await buyTicketsOk(app, fan, event.id, 2);
    const again = await buy(fan, { eventId: event.id, quantity: 1 });
    expect(again.json<ErrorBody>().fields).toEqual({
      quantity: 'You already have the 2 tickets one buyer may get for this event',
    });
    await buyTicketsOk(app, await createUser(app), event.id, 2);
    expect(await ticketsLeft(event.id)).toBe(6);
  });

  it('refuses a maximum per buyer above the maximum tickets, and lowers it with them', async () => {
    const creator = await createCreator(app);
    const refused = await api(app, {
      method: 'POST',
      url: '/api/events',
      headers: authHeader(creator.token),
      payload: {
        name: 'Set',
        description: 'Live',
        price: 5,
        maxTickets: 3,
        maxPerBuyer: 4,
        date: daysFromNow(3),
      },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ErrorBody>().fields).toEqual({
      maxPerBuyer: 'Maximum per buyer cannot be more than the maximum tickets',
    });
    const event = await createEvent(app, creator, { maxTickets: 10, maxPerBuyer: 8 });
    const lowered = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}`,
      headers: authHeader(creator.token),
      payload: { maxTickets: 5 },
    });
    expect(lowered.json<Event>()).toMatchObject({ maxTickets: 5, maxPerBuyer: 5 });
  });
});

describe('POST /api/events/:id/cancel', () => {
  it('refunds every buyer in full, without a penalty a day or more ahead, and stops the sales', async () => {
    const { creator, event, fans } = await eventWithSales(app, {
      event: { price: 10, date: daysFromNow(3) },
      sales: [2, 1],
    });

    const response = await cancel(creator, event.id);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<Cancellation>()).toEqual({ refundedOrders: 2, refunded: 30, penalty: 0 });

    for (const fan of fans) {
      expect((await get<Order[]>(fan, '/api/orders')).map((order) => order.status)).toEqual(['refunded']);
    }
    const shown = (await api(app, { method: 'GET', url: `/api/events/${event.id}` })).json<Event>();
    expect(shown).toMatchObject({ isActive: false, cancelledAt: expect.any(String) });
    const listed = (await api(app, { method: 'GET', url: '/api/events' })).json<Event[]>();
    expect(listed.map((item) => item.id)).not.toContain(event.id);
    const late = await buy(await createUser(app), { eventId: event.id, quantity: 1 });
    expect(late.json<ErrorBody>()).toMatchObject({ statusCode: 409, message: 'This event was cancelled' });
    const reopen = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}`,
      headers: authHeader(creator.token),
      payload: { isActive: true },
    });
    expect(reopen.json<ErrorBody>()).toMatchObject({ statusCode: 409, message: 'This event was cancelled' });

    expect(await eventRow(creator, event.id)).toMatchObject({
      cancelled: true,
      ticketsSold: 0,
      gross: 30,
      platformFee: 0,
      refunded: 30,
      penalty: 0,
      net: 0,
    });
    expect((await earnings(creator)).balance).toEqual({
      pending: 0,
      available: 0,
      reserved: 0,
      due: 0,
      paidOut: 0,
    });
    expect(await unbalancedMovements(app.deps.db)).toEqual([]);
  });

  it('charges the creator 5 % of the gross when the event starts in less than 24 hours', async () => {
    const { creator, event } = await eventWithSales(app, {
      event: { price: 25, date: new Date(Date.now() + 2 * HOUR_MS).toISOString() },
      sales: [3],
    });
    const response = await cancel(creator, event.id);
    expect(response.json<Cancellation>()).toEqual({ refundedOrders: 1, refunded: 75, penalty: 3.75 });
    expect(await eventRow(creator, event.id)).toMatchObject({ refunded: 75, penalty: 3.75, net: -3.75 });
    // The penalty is owed: the available balance goes below zero until later earnings cover it.
    expect(await balanceIn(app.deps.db, creator.user.id, 'creator_available')).toBe(-375);
  });

  it('charges no penalty for an event without sales', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { date: new Date(Date.now() + HOUR_MS).toISOString() });
    expect((await cancel(creator, event.id)).json<Cancellation>()).toEqual({
      refundedOrders: 0,
      refunded: 0,
      penalty: 0,
    });
  });

  it("is its creator's alone, once, and only until the event ends", async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    expect((await cancel(await createCreator(app), event.id)).statusCode).toBe(403);
    expect((await cancel(await createUser(app), event.id)).statusCode).toBe(403);
    expect((await cancel(creator, 999_999)).statusCode).toBe(404);
    expect((await cancel(creator, event.id)).statusCode).toBe(200);
    expect((await cancel(creator, event.id)).json<ErrorBody>().message).toBe(
      'This event is already cancelled',
    );

    const ended = await createEvent(app, creator);
    await moveEventDate(app, ended.id, new Date(Date.now() - 2 * HOUR_MS).toISOString());
    expect((await cancel(creator, ended.id)).json<ErrorBody>()).toMatchObject({
      statusCode: 409,
      message: 'This event has already ended and can no longer be cancelled',
    });
  });
});

describe('earnings, payouts and the CSV', () => {
  it('are for creators, each seeing their own', async () => {
    const fan = await createUser(app);
    for (const url of ['/api/earnings', '/api/earnings.csv', '/api/payouts', '/api/payments/account']) {
      expect((await api(app, { method: 'GET', url, headers: authHeader(fan.token) })).statusCode).toBe(403);
      expect((await api(app, { method: 'GET', url })).statusCode).toBe(401);
    }
    const creator = await createCreator(app);
    await buyTicketsOk(app, fan, (await createEvent(app, await createCreator(app))).id, 1);
    expect(await earnings(creator)).toEqual({
      balance: { pending: 0, available: 0, reserved: 0, due: 0, paidOut: 0 },
      events: [],
    });
  });

  it('downloads the per-event table as CSV, with formulas defused', async () => {
    const { creator, event } = await eventWithSales(app, {
      event: { name: '=HYPERLINK("x"), "live"', price: 10 },
      sales: [2],
    });
    // Quoted too: many locales' spreadsheets split fields at a semicolon.
    const earlier = await createEvent(app, creator, { name: 'Rock; Jazz', date: daysFromNow(0.5) });
    // Quoted too: a line break alone (not CR LF) would start a row in some readers.
    const latest = await createEvent(app, creator, { name: 'Late\nShow', date: daysFromNow(0.25) });
    const response = await api(app, {
      method: 'GET',
      url: '/api/earnings.csv',
      headers: authHeader(creator.token),
    });
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toContain('attachment');
    expect(response.body.split('\r\n')).toEqual([
      'eventId,name,date,cancelled,ticketsSold,gross,platformFee,processorFee,refunded,penalty,net',
      `${event.id},"'=HYPERLINK(""x""), ""live""",${event.date},false,2,20,2,0,0,0,18`,
      `${earlier.id},"Rock; Jazz",${earlier.date},false,0,0,0,0,0,0,0`,
      `${latest.id},"Late\nShow",${latest.date},false,0,0,0,0,0,0,0`,
      '',
    ]);
  });

  it('tells a creator with no payment provider that payouts are recorded as due', async () => {
    const creator = await createCreator(app);
    expect(await get(creator, '/api/payments/account')).toEqual({
      provider: 'none',
      connected: false,
      payoutsEnabled: false,
      country: null,
      requirements: [],
    });
    for (const url of ['/api/payments/account/onboarding', '/api/payments/account/dashboard']) {
      const response = await api(app, {
        method: 'POST',
        url,
        headers: authHeader(creator.token),
        payload: { country: 'US' },
      });
      expect(response.statusCode, url).toBe(409);
    }
    expect(await get(creator, '/api/payments/config')).toEqual({ provider: 'none', holdMinutes: 30 });
  });
});

describe('npm run admin -- refund-event', () => {
  it('refunds every buyer after an outage, with no penalty, until the earnings are released', async () => {
    const { creator, event, fans } = await eventWithSales(app, { event: { price: 8 }, sales: [2] });
    const [fan] = fans;
    await moveEventDate(app, event.id, new Date(Date.now() - 3 * HOUR_MS).toISOString());
    expect(await runAdminCommand(app, ['refund-event', String(event.id), '--reason', 'outage'])).toBe(
      `Event ${event.id}: 1 order(s) refunded, $16.00 in total.`,
    );
    expect((await get<Order[]>(fan, '/api/orders'))[0]?.status).toBe('refunded');
    expect(await eventRow(creator, event.id)).toMatchObject({ refunded: 16, penalty: 0, net: 0 });

    const released = await createEvent(app, creator, { price: 8 });
    await buyTicketsOk(app, fan, released.id, 1);
    await moveEventDate(app, released.id, new Date(Date.now() - 30 * HOUR_MS).toISOString());
    await runSettlement(app.deps, new Date());
    await expect(
      runAdminCommand(app, ['refund-event', String(released.id), '--reason', 'outage']),
    ).rejects.toThrow("This event's earnings were already released");
    await expect(
      runAdminCommand(app, ['refund-event', String(released.id), '--reason', 'boredom']),
    ).rejects.toThrow('Not a reason: boredom');
  });
});
