import type { Event } from '@stagedoor/shared/events';
import type { ErrorBody } from '@stagedoor/shared/errors';
import { DEFAULT_MAX_PER_BUYER, PAGE_DEFAULT, PAGE_MAX } from '@stagedoor/shared/limits';
import type { Order, OrderSummary } from '@stagedoor/shared/orders';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  firstTicketTypeId,
  api,
  authHeader,
  buyTickets,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  daysFromNow,
  moveEventDate,
  type TestAccount,
  storedTicketsLeft,
} from '../../../test/factories';
import { createTestApp } from '../../../test/test-app';
import { orders } from '../../db/schema';

const ORDERS_PER_MINUTE = 20;

const app = await createTestApp();
afterAll(() => app.close());

const ticketsLeft = (eventId: number) => storedTicketsLeft(app, eventId);

const myOrders = async (buyer: TestAccount, query = '') => {
  const response = await api(app, {
    method: 'GET',
    url: `/api/orders${query}`,
    headers: authHeader(buyer.token),
  });
  expect(response.statusCode).toBe(200);
  return response.json<Order[]>();
};

const summaryOf = async (buyer: TestAccount, query = '') => {
  const response = await api(app, {
    method: 'GET',
    url: `/api/orders/summary${query}`,
    headers: authHeader(buyer.token),
  });
  expect(response.statusCode).toBe(200);
  return response.json<OrderSummary>();
};

/** `count` completed orders of one ticket each, written straight to the table (past the rate limit). */
const storeOrders = (buyer: TestAccount, event: Event, count: number) =>
  app.deps.db.insert(orders).values(
    Array.from({ length: count }, (_, index) => ({
      accountId: buyer.user.id,
      eventId: event.id,
      ticketTypeId: firstTicketTypeId(event),
      quantity: 1,
      unitPriceCents: 100,
      totalCents: 100,
      status: 'completed' as const,
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
    })),
  );

const storedOrdersOf = (eventId: number) =>
  app.deps.db.select().from(orders).where(eq(orders.eventId, eventId));

describe('POST /api/orders', () => {
  it('sells tickets at the stored price, whatever total the client sends', async () => {
    const event = await createEvent(app, await createCreator(app), { price: 12.5, maxTickets: 10 });
    const buyer = await createUser(app);
    const response = await api(app, {
      method: 'POST',
      url: '/api/orders',
      headers: authHeader(buyer.token),
      payload: { eventId: event.id, quantity: 3, totalAmount: 0.01, price: 0 },
    });
    expect(response.statusCode).toBe(201);
    const order = response.json<Order>();
    expect(order).toEqual({
      id: expect.any(Number),
      status: 'completed',
      quantity: 3,
      unitPrice: 12.5,
      totalAmount: 37.5,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      checkoutUrl: null,
      expiresAt: null,
      refundStatus: null,
      givenTo: null,
      giftFrom: null,
      ticketType: 'General admission',
      promoCode: null,
      discount: 0,
      event: { id: event.id, name: event.name, image: null, date: event.date, hasReplay: false },
    });
    expect(await ticketsLeft(event.id)).toBe(7);
    expect(await storedOrdersOf(event.id)).toEqual([
      expect.objectContaining({ quantity: 3, unitPriceCents: 1250, totalCents: 3750, status: 'completed' }),
    ]);
  });

  it('sells to creators too (they have a My Tickets page)', async () => {
    const event = await createEvent(app, await createCreator(app));
    const fanCreator = await createCreator(app);
    await buyTicketsOk(app, fanCreator, event.id, 1);
    expect(await myOrders(fanCreator)).toHaveLength(1);
  });

  it.each([
    [{ eventId: 1, quantity: 0 }, { quantity: 'Quantity must be at least 1' }],
    [{ eventId: 1, quantity: 1.5 }, { quantity: 'Quantity must be a whole number' }],
    [{ eventId: 1, quantity: 'two' }, { quantity: 'Quantity must be a number' }],
    [{ eventId: 1, quantity: 100_001 }, { quantity: 'Quantity must be at most 100000' }],
    [{}, { eventId: 'Event id is required', quantity: 'Quantity is required' }],
    [
      { eventId: 'x', quantity: -1 },
      { eventId: 'Event id must be a number', quantity: 'Quantity must be at least 1' },
    ],
  ])('refuses %j with 400', async (payload, fields) => {
    const response = await api(app, {
      method: 'POST',
      url: '/api/orders',
      headers: authHeader((await createUser(app)).token),
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual(fields);
  });

  it('needs a signed-in account', async () => {
    const event = await createEvent(app, await createCreator(app));
    const response = await api(app, {
      method: 'POST',
      url: '/api/orders',
      payload: { eventId: event.id, quantity: 1 },
    });
    expect(response.statusCode).toBe(401);
    expect(await ticketsLeft(event.id)).toBe(event.maxTickets);
  });

  it('answers 404 for an unknown event', async () => {
    const response = await buyTickets(app, await createUser(app), 2147483647, 1);
    expect(response.statusCode).toBe(404);
    expect(response.json<ErrorBody>().message).toBe('Event not found');
  });

  it('does not sell an inactive event', async () => {
    const event = await createEvent(app, await createCreator(app), { isActive: false });
    const response = await buyTickets(app, await createUser(app), event.id, 1);
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'This event is not on sale',
    });
    expect(await storedOrdersOf(event.id)).toEqual([]);
  });

  it('does not sell an event that has started', async () => {
    const event = await createEvent(app, await createCreator(app));
    await moveEventDate(app, event.id, daysFromNow(-0.01));
    const response = await buyTickets(app, await createUser(app), event.id, 1);
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().message).toBe('This event has already started');
    expect(await ticketsLeft(event.id)).toBe(event.maxTickets);
  });

  it('sells no more than the tickets left, and says how many are', async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 5 });
    const buyer = await createUser(app);
    await buyTicketsOk(app, buyer, event.id, 2);

    const tooMany = await buyTickets(app, buyer, event.id, 4);
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json<ErrorBody>()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'Only 3 tickets left',
      fields: { quantity: 'Only 3 tickets left' },
    });
    await buyTicketsOk(app, buyer, event.id, 2);
    expect((await buyTickets(app, buyer, event.id, 2)).json<ErrorBody>().fields).toEqual({
      quantity: 'Only 1 ticket left',
    });
    await buyTicketsOk(app, buyer, event.id, 1);
    expect((await buyTickets(app, buyer, event.id, 1)).json<ErrorBody>().fields).toEqual({
      quantity: 'No tickets left',
    });
    expect(await ticketsLeft(event.id)).toBe(0);
    expect((await storedOrdersOf(event.id)).map((order) => order.quantity)).toEqual([2, 2, 1]);
  });

  it(`lets one buyer take at most ${DEFAULT_MAX_PER_BUYER} tickets of an event whose creator set no maximum`, async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 100_000 });
    expect(event.maxPerBuyer).toBe(DEFAULT_MAX_PER_BUYER);
    const buyer = await createUser(app);
    const stock = await buyTickets(app, buyer, event.id, 100_000);
    expect(stock.statusCode).toBe(409);
    expect(stock.json<ErrorBody>().fields).toEqual({
      quantity: `You can get ${DEFAULT_MAX_PER_BUYER} more tickets for this event`,
    });
    await buyTicketsOk(app, buyer, event.id, DEFAULT_MAX_PER_BUYER);
    expect((await buyTickets(app, buyer, event.id, 1)).statusCode).toBe(409);
    expect(await ticketsLeft(event.id)).toBe(100_000 - DEFAULT_MAX_PER_BUYER);

    const small = await createEvent(app, await createCreator(app), { maxTickets: 3 });
    expect(small.maxPerBuyer).toBe(3);
  });

  it(`takes ${ORDERS_PER_MINUTE} orders a minute from one account, then 429`, async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 1000, maxPerBuyer: 1000 });
    const buyer = await createUser(app);
    for (let order = 0; order < ORDERS_PER_MINUTE; order += 1) await buyTicketsOk(app, buyer, event.id, 1);
    const refused = await buyTickets(app, buyer, event.id, 1);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ErrorBody>().code).toBe('RATE_LIMITED');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await ticketsLeft(event.id)).toBe(1000 - ORDERS_PER_MINUTE);
    // Another buyer is not held up by the first.
    await buyTicketsOk(app, await createUser(app), event.id, 1);
  });
});

describe('POST /api/orders with an Idempotency-Key', () => {
  it('answers a retry with the first order (200) and takes the tickets once', async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 10 });
    const buyer = await createUser(app);
    const first = await buyTickets(app, buyer, event.id, 2, 'checkout-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const retry = await buyTickets(app, buyer, event.id, 2, 'checkout-1');
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json<Order>()).toEqual(first.json<Order>());
    expect(await ticketsLeft(event.id)).toBe(8);
    expect(await myOrders(buyer)).toEqual([first.json<Order>()]);
  });

  it('refuses the same key for another purchase', async () => {
    const event = await createEvent(app, await createCreator(app));
    const buyer = await createUser(app);
    await buyTickets(app, buyer, event.id, 1, 'checkout-2');
    const response = await buyTickets(app, buyer, event.id, 3, 'checkout-2');
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().message).toBe(
      'This Idempotency-Key was already used for another purchase',
    );
    expect(await ticketsLeft(event.id)).toBe(event.maxTickets - 1);
  });

  it("keeps one account's keys apart from another's", async () => {
    const event = await createEvent(app, await createCreator(app));
    const [sam, ana] = [await createUser(app), await createUser(app)];
    const fromSam = await buyTickets(app, sam, event.id, 1, 'same-key');
    const fromAna = await buyTickets(app, ana, event.id, 1, 'same-key');
    expect([fromSam.statusCode, fromAna.statusCode]).toEqual([201, 201]);
    expect(fromAna.json<Order>().id).not.toBe(fromSam.json<Order>().id);
  });

  it('answers every concurrent request carrying the key of the order that took the last tickets with that order', async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 2 });
    const buyer = await createUser(app);
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => buyTickets(app, buyer, event.id, 2, 'last-tickets')),
    );
    const statuses = responses.map((response) => response.statusCode).sort((a, b) => a - b);
    expect(statuses).toEqual([...Array<number>(11).fill(200), 201]);
    expect(new Set(responses.map((response) => response.json<Order>().id)).size).toBe(1);
    expect(await ticketsLeft(event.id)).toBe(0);
  });

  it('places one order for concurrent requests carrying the same key', async () => {
    const event = await createEvent(app, await createCreator(app), { maxTickets: 100 });
    const buyer = await createUser(app);
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => buyTickets(app, buyer, event.id, 2, 'double-click')),
    );
    const statuses = responses.map((response) => response.statusCode).sort((a, b) => a - b);
    expect(statuses).toEqual([...Array<number>(11).fill(200), 201]);
    expect(new Set(responses.map((response) => response.json<Order>().id)).size).toBe(1);
    expect(await storedOrdersOf(event.id)).toHaveLength(1);
    expect(await ticketsLeft(event.id)).toBe(98);
  });

  it('refuses a blank key', async () => {
    const event = await createEvent(app, await createCreator(app));
    const response = await buyTickets(app, await createUser(app), event.id, 1, '   ');
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({
      'Idempotency-Key': 'Idempotency-Key must not be blank',
    });
  });
});

describe('GET /api/orders', () => {
  it("answers the caller's orders, the soonest show first", async () => {
    const creator = await createCreator(app);
    const first = await createEvent(app, creator, { name: 'First', price: 5, date: daysFromNow(9) });
    const second = await createEvent(app, creator, { name: 'Second', price: 8.75, date: daysFromNow(8) });
    const buyer = await createUser(app);
    await buyTicketsOk(app, await createUser(app), first.id, 1);
    await buyTicketsOk(app, buyer, first.id, 2);
    await buyTicketsOk(app, buyer, second.id, 4);

    expect(
      (await myOrders(buyer)).map(({ event, quantity, totalAmount }) => [event.name, quantity, totalAmount]),
    ).toEqual([
      ['Second', 4, 35],
      ['First', 2, 10],
    ]);
    expect(await myOrders(await createUser(app))).toEqual([]);
  });

  it('keeps orders of an event that has since been deactivated', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const buyer = await createUser(app);
    await buyTicketsOk(app, buyer, event.id, 1);
    await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}`,
      headers: authHeader(creator.token),
      payload: { isActive: false },
    });
    expect((await myOrders(buyer)).map((order) => order.event.id)).toEqual([event.id]);
  });

  it(`answers a page at a time: ${PAGE_DEFAULT} unless asked, at most ${PAGE_MAX}`, async () => {
    const event = await createEvent(app, await createCreator(app), { price: 1 });
    const buyer = await createUser(app);
    await storeOrders(buyer, event, PAGE_MAX + 5);
    const all = await myOrders(buyer, `?limit=${PAGE_MAX}`);
    expect(all).toHaveLength(PAGE_MAX);
    expect(await myOrders(buyer)).toEqual(all.slice(0, PAGE_DEFAULT));
    expect(await myOrders(buyer, '?limit=3&offset=2')).toEqual(all.slice(2, 5));
    const rest = await myOrders(buyer, `?limit=${PAGE_MAX}&offset=${PAGE_MAX}`);
    expect(rest).toHaveLength(5);
    expect(new Set([...all, ...rest].map((order) => order.id)).size).toBe(PAGE_MAX + 5);

    const tooMany = await api(app, {
      method: 'GET',
      url: `/api/orders?limit=${PAGE_MAX + 1}`,
      headers: authHeader(buyer.token),
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<ErrorBody>().fields).toEqual({ limit: `limit must be at most ${PAGE_MAX}` });
  });

  it('needs a signed-in account', async () => {
    expect((await api(app, { method: 'GET', url: '/api/orders' })).statusCode).toBe(401);
  });
});

describe('GET /api/orders/summary', () => {
  it("counts the caller's orders and the tickets of the completed ones, over all events or one", async () => {
    const creator = await createCreator(app);
    const first = await createEvent(app, creator, { price: 5 });
    const second = await createEvent(app, creator, { price: 5 });
    const buyer = await createUser(app);
    await buyTicketsOk(app, buyer, first.id, 2);
    await buyTicketsOk(app, buyer, first.id, 3);
    await buyTicketsOk(app, buyer, second.id, 4);
    await buyTicketsOk(app, await createUser(app), first.id, 1);
    await app.deps.db.insert(orders).values({
      accountId: buyer.user.id,
      eventId: first.id,
      ticketTypeId: firstTicketTypeId(first),
      quantity: 6,
      unitPriceCents: 500,
      totalCents: 3000,
      status: 'expired',
    });

    expect(await summaryOf(buyer)).toEqual({ orders: 4, tickets: 9 });
    expect(await summaryOf(buyer, `?eventId=${first.id}`)).toEqual({ orders: 3, tickets: 5 });
    expect(await summaryOf(buyer, `?eventId=${second.id}`)).toEqual({ orders: 1, tickets: 4 });
    expect(await summaryOf(await createUser(app))).toEqual({ orders: 0, tickets: 0 });
  });

  it('refuses an eventId that is not an id, naming it', async () => {
    const response = await api(app, {
      method: 'GET',
      url: '/api/orders/summary?eventId=abc',
      headers: authHeader((await createUser(app)).token),
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(response.json<ErrorBody>().fields ?? {})).toEqual(['eventId']);
  });

  it('needs a signed-in account', async () => {
    expect((await api(app, { method: 'GET', url: '/api/orders/summary' })).statusCode).toBe(401);
  });
});
