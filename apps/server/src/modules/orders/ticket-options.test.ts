import type { ErrorBody } from '@stagedoor/shared/errors';
import { QUOTES_PER_ACCOUNT_PER_MINUTE } from '@stagedoor/shared/limits';
import type { Event, TicketTypeInput } from '@stagedoor/shared/events';
import type { Order, OrderQuote } from '@stagedoor/shared/orders';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { api, authHeader, createCreator, createUser, type TestAccount } from '../../../test/factories';
import { stripeWorld } from '../../../test/stripe-world';
import { events, outbox, promoCodes, ticketTypes } from '../../db/schema';
import { renderMail } from '../mail/messages';
import { clockAt, expireOrder } from './order-lifecycle';

/** Ticket types, codes, free and pay-what-you-want tickets, with Stripe (its stand-in) as the provider. */
const world = await stripeWorld();
const { standIn, app, movementsOf, storedOrder } = world;
afterAll(() => world.close());

const DAY_MS = 24 * 3600_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

async function eventWith(creator: TestAccount, types: TicketTypeInput[], extra: object = {}): Promise<Event> {
  const response = await api(app, {
    method: 'POST',
    url: '/api/events',
    headers: authHeader(creator.token),
    payload: {
      name: 'Options',
      description: 'Several kinds of ticket.',
      date: inDays(10),
      ticketTypes: types,
      ...extra,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Event>();
}

const post = (who: TestAccount, url: string, payload: object) =>
  api(app, { method: 'POST', url, headers: authHeader(who.token), payload });

async function addCode(creator: TestAccount, event: Event, code: object) {
  const response = await post(creator, `/api/events/${event.id}/promo-codes`, code);
  expect(response.statusCode, response.body).toBe(201);
}

const typeOf = (event: Event, name: string) => {
  const type = event.ticketTypes.find((each) => each.name === name);
  if (!type) throw new Error(`no type ${name}`);
  return type;
};

describe('ticket types', () => {
  it('an event sells the types it was given, in order: its price is the first one, its stock their total', async () => {
    const event = await eventWith(await createCreator(app), [
      { name: 'Early bird', price: 10, maxTickets: 5 },
      { name: 'Front row + meet & greet', price: 80, maxTickets: 2, salesEnd: inDays(5) },
    ]);
    expect(event).toMatchObject({ price: 10, maxTickets: 7, ticketsLeft: 7 });
    expect(event.ticketTypes.map(({ name, price, ticketsLeft }) => [name, price, ticketsLeft])).toEqual([
      ['Early bird', 10, 5],
      ['Front row + meet & greet', 80, 2],
    ]);
  });

  it('sells the type asked for within its own stock and window, and says why not otherwise', async () => {
    const creator = await createCreator(app);
    const event = await eventWith(creator, [
      { name: 'Standard', price: 0, maxTickets: 10 },
      { name: 'Backstage', price: 0, maxTickets: 1 },
      { name: 'Late', price: 0, maxTickets: 10, salesStart: inDays(2) },
    ]);
    const fan = await createUser(app);
    const backstage = typeOf(event, 'Backstage').id;
    const bought = await post(fan, '/api/orders', {
      eventId: event.id,
      quantity: 1,
      ticketTypeId: backstage,
    });
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json<Order>()).toMatchObject({
      ticketType: 'Backstage',
      totalAmount: 0,
      status: 'completed',
    });

    const soldOut = await post(await createUser(app), '/api/orders', {
      eventId: event.id,
      quantity: 1,
      ticketTypeId: backstage,
    });
    expect(soldOut.statusCode).toBe(409);
    expect(soldOut.json<ErrorBody>().fields).toEqual({ quantity: 'No tickets left' });
    const early = await post(fan, '/api/orders', {
      eventId: event.id,
      quantity: 1,
      ticketTypeId: typeOf(event, 'Late').id,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json<ErrorBody>().fields).toEqual({ ticketTypeId: 'These tickets are not on sale yet' });
    const other = await eventWith(creator, [{ name: 'Elsewhere', price: 0, maxTickets: 3 }]);
    const foreign = await post(fan, '/api/orders', {
      eventId: event.id,
      quantity: 1,
      ticketTypeId: other.ticketTypes[0]?.id,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json<ErrorBody>().fields).toEqual({
      ticketTypeId: 'This ticket type is not one of this event',
    });
  });

  it('an edit keeps a type by its id, never below what it sold, and removes only a type never ordered', async () => {
    const creator = await createCreator(app);
    const event = await eventWith(creator, [
      { name: 'A', price: 0, maxTickets: 5 },
      { name: 'B', price: 0, maxTickets: 5 },
    ]);
    const [a, b] = event.ticketTypes;
    if (!a || !b) throw new Error('two types');
    expect(
      (
        await post(await createUser(app), '/api/orders', {
          eventId: event.id,
          quantity: 3,
          ticketTypeId: b.id,
        })
      ).statusCode,
    ).toBe(201);
    const edit = (types: TicketTypeInput[]) =>
      post(creator, `/api/events/${event.id}`, { ticketTypes: types });

    const below = await edit([
      { id: a.id, name: 'A', price: 0, maxTickets: 5 },
      { id: b.id, name: 'B', price: 0, maxTickets: 2 },
    ]);
    expect(below.statusCode).toBe(409);
    expect(below.json<ErrorBody>().fields).toEqual({
      'ticketTypes.1.maxTickets':
        'Maximum tickets cannot be lower than the 3 tickets of this type already sold',
    });
    const removeSold = await edit([{ id: a.id, name: 'A', price: 0, maxTickets: 5 }]);
    expect(removeSold.statusCode).toBe(409);

    const changed = await edit([
      { id: b.id, name: 'B first', price: 4, maxTickets: 3 },
      { name: 'C', price: 0, maxTickets: 4 },
    ]);
    expect(changed.statusCode, changed.body).toBe(200);
    const after = changed.json<Event>();
    expect(after).toMatchObject({ price: 4, maxTickets: 7, ticketsLeft: 4 });
    expect(after.ticketTypes.map(({ id, name, ticketsLeft }) => [id === b.id, name, ticketsLeft])).toEqual([
      [true, 'B first', 0],
      [false, 'C', 4],
    ]);
  });

  it('takes its types as JSON in a multipart form, and refuses text that is not JSON naming the field', async () => {
    const creator = await createCreator(app);
    const form = (ticketTypes: string) => {
      const boundary = 'stagedoor-test';
      const field = (name: string, value: string) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      return api(app, {
        method: 'POST',
        url: '/api/events',
        headers: {
          ...authHeader(creator.token),
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload:
          field('name', 'Form') +
          field('description', 'From a form.') +
          field('date', inDays(3)) +
          field('ticketTypes', ticketTypes) +
          `--${boundary}--\r\n`,
      });
    };
    const made = await form(
      JSON.stringify([
        { name: 'One', price: 5, maxTickets: 2 },
        { name: 'Two', price: 9, maxTickets: 1 },
      ]),
    );
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json<Event>()).toMatchObject({ maxTickets: 3, price: 5 });
    const broken = await form('[{"name": "One"');
    expect(broken.statusCode).toBe(400);
    expect(broken.json<ErrorBody>().fields).toEqual({ ticketTypes: 'Ticket types must be a JSON list' });
    const deep = await form(`${'['.repeat(5000)}${']'.repeat(5000)}`);
    expect(deep.statusCode).toBe(400);
  });
});

describe('free and pay-what-you-want tickets', () => {
  it('a free ticket is a registration: completed at once, no call to the provider, no fee', async () => {
    const event = await eventWith(await createCreator(app), [
      { name: 'Free entry', price: 0, maxTickets: 20 },
    ]);
    const sessions = standIn.callsTo('POST', '/v1/checkout/sessions').length;
    const response = await post(await createUser(app), '/api/orders', { eventId: event.id, quantity: 2 });
    expect(response.statusCode, response.body).toBe(201);
    const order = response.json<Order>();
    expect(order).toMatchObject({ status: 'completed', totalAmount: 0, checkoutUrl: null });
    expect(standIn.callsTo('POST', '/v1/checkout/sessions')).toHaveLength(sessions);
    // No money moves: no sale in the ledger, so no fee.
    expect(await movementsOf(order.id)).toEqual({});
  });

  it('pay what you want: the suggested amount by default, at least the minimum, the field named when not', async () => {
    const event = await eventWith(await createCreator(app), [
      { name: 'Your price', maxTickets: 20, payWhatYouWant: { minimum: 5, suggested: 15 } },
    ]);
    expect(event.ticketTypes[0]).toMatchObject({ price: 5, payWhatYouWant: { minimum: 5, suggested: 15 } });
    const fan = await createUser(app);
    const quote = (body: object) =>
      post(fan, '/api/orders/quote', { eventId: event.id, quantity: 2, ...body });

    expect((await quote({})).json<OrderQuote>()).toMatchObject({ unitPrice: 15, total: 30 });
    expect((await quote({ amount: 42.5 })).json<OrderQuote>()).toMatchObject({ unitPrice: 42.5, total: 85 });
    const below = await post(fan, '/api/orders', { eventId: event.id, quantity: 1, amount: 4.99 });
    expect(below.statusCode).toBe(400);
    expect(below.json<ErrorBody>().fields).toEqual({ amount: 'Pay at least $5.00 a ticket' });
    const coded = await quote({ promoCode: 'ANY-CODE' });
    expect(coded.statusCode).toBe(400);
    expect(coded.json<ErrorBody>().fields).toEqual({
      promoCode: 'This promo code is not valid for this event',
    });

    const paid = await post(fan, '/api/orders', { eventId: event.id, quantity: 2, amount: 20 });
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json<Order>()).toMatchObject({ status: 'pending', unitPrice: 20, totalAmount: 40 });
    const [session] = standIn.callsTo('POST', '/v1/checkout/sessions').slice(-1);
    expect(session?.params).toMatchObject({
      line_items: [{ quantity: '2', price_data: { unit_amount: '2000' } }],
    });
  });

  it('a fixed price takes no amount', async () => {
    const event = await eventWith(await createCreator(app), [{ name: 'Fixed', price: 10, maxTickets: 5 }]);
    const response = await post(await createUser(app), '/api/orders', {
      eventId: event.id,
      quantity: 1,
      amount: 50,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({
      amount: 'These tickets have a fixed price: leave the amount out',
    });
  });
});

describe('promo codes', () => {
  it('the quote shows the discount before anything is charged, and the order, the charge and the ledger use it', async () => {
    const creator = await createCreator(app);
    const event = await eventWith(creator, [
      { name: 'Standard', price: 20, maxTickets: 10 },
      { name: 'VIP', price: 100, maxTickets: 2 },
    ]);
    await addCode(creator, event, {
      code: 'friends',
      amountOff: 7.5,
      ticketTypeIds: [typeOf(event, 'Standard').id],
    });
    const fan = await createUser(app);
    const body = {
      eventId: event.id,
      quantity: 2,
      ticketTypeId: typeOf(event, 'Standard').id,
      promoCode: 'Friends',
    };

    const quote = await post(fan, '/api/orders/quote', body);
    expect(quote.statusCode, quote.body).toBe(200);
    expect(quote.json<OrderQuote>()).toEqual({
      ticketType: { id: typeOf(event, 'Standard').id, name: 'Standard' },
      quantity: 2,
      unitPrice: 20,
      subtotal: 40,
      promoCode: 'FRIENDS',
      discount: 15,
      total: 25,
    });
    const [code] = await app.deps.db.select().from(promoCodes).where(eq(promoCodes.eventId, event.id));
    expect(code?.uses).toBe(0);

    const placed = await post(fan, '/api/orders', body);
    expect(placed.statusCode, placed.body).toBe(201);
    const order = placed.json<Order>();
    expect(order).toMatchObject({
      ticketType: 'Standard',
      promoCode: 'FRIENDS',
      discount: 15,
      totalAmount: 25,
      unitPrice: 20,
    });
    const [session] = standIn.callsTo('POST', '/v1/checkout/sessions').slice(-1);
    expect(session?.params).toMatchObject({
      line_items: [{ quantity: '2', price_data: { unit_amount: '1250' } }],
    });
    expect((await storedOrder(order.id)).totalCents).toBe(2500);

    const vip = await post(fan, '/api/orders/quote', { ...body, ticketTypeId: typeOf(event, 'VIP').id });
    expect(vip.statusCode).toBe(400);
    expect(vip.json<ErrorBody>().fields).toEqual({
      promoCode: 'This promo code is not valid for these tickets',
    });
  });

  it('a code that leaves less than a card can pay is refused naming the code, and holds nothing', async () => {
    const creator = await createCreator(app);
    const event = await eventWith(creator, [{ name: 'Standard', price: 1, maxTickets: 10 }]);
    await addCode(creator, event, { code: 'ALMOST', amountOff: 0.75 });
    const sessions = standIn.callsTo('POST', '/v1/checkout/sessions').length;
    const refused = await post(await createUser(app), '/api/orders', {
      eventId: event.id,
      quantity: 1,
      promoCode: 'ALMOST',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<ErrorBody>().fields).toEqual({
      promoCode: 'A card payment is at least $0.50: choose more tickets',
    });
    expect(standIn.callsTo('POST', '/v1/checkout/sessions')).toHaveLength(sessions);
    const [stored] = await app.deps.db
      .select({ sold: events.sold })
      .from(events)
      .where(eq(events.id, event.id));
    expect(stored?.sold).toBe(0);
  });

  it('refuses a code unknown, expired or used up, naming the field, and a code the event already has', async () => {
    const creator = await createCreator(app);
    const event = await eventWith(creator, [{ name: 'Standard', price: 10, maxTickets: 10 }]);
    await addCode(creator, event, { code: 'ONCE', percentOff: 100, maxUses: 1 });
    await addCode(creator, event, { code: 'SOON-GONE', percentOff: 10, expiresAt: inDays(1) });
    const fan = await createUser(app);
    const order = (code: string) =>
      post(fan, '/api/orders', { eventId: event.id, quantity: 1, promoCode: code });

    const free = await order('once');
    expect(free.statusCode, free.body).toBe(201);
    // All off: nothing to pay, so completed at once, and its receipt says what the code took off.
    expect(free.json<Order>()).toMatchObject({ status: 'completed', totalAmount: 0, discount: 10 });
    const [receipt] = await app.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.key, `receipt:order:${free.json<Order>().id}`));
    expect(
      renderMail('receipt', receipt?.data as Record<string, unknown>, {
        siteUrl: 'https://stagedoor.test',
        remindersOff: () => '',
      }).text,
    ).toContain('1 Standard ticket, $0.00 in total, $10.00 off with ONCE.');
    expect((await order('ONCE')).json<ErrorBody>().fields).toEqual({
      promoCode: 'This promo code has been used up',
    });
    expect((await order('NOPE')).json<ErrorBody>().fields).toEqual({
      promoCode: 'This promo code is not valid for this event',
    });
    await app.deps.db
      .update(promoCodes)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(promoCodes.code, 'SOON-GONE'));
    const expired = await order('soon-gone');
    expect(expired.statusCode).toBe(409);
    expect(expired.json<ErrorBody>().fields).toEqual({ promoCode: 'This promo code has expired' });
    expect((await order('bad code!')).statusCode).toBe(400);

    const again = await post(creator, `/api/events/${event.id}/promo-codes`, { code: 'once', amountOff: 1 });
    expect(again.statusCode).toBe(409);
    expect(again.json<ErrorBody>().fields).toEqual({ code: 'This event already has the promo code ONCE' });
    const both = await post(creator, `/api/events/${event.id}/promo-codes`, {
      code: 'BOTH',
      amountOff: 1,
      percentOff: 5,
    });
    expect(both.statusCode).toBe(400);
    const list = await api(app, {
      method: 'GET',
      url: `/api/events/${event.id}/promo-codes`,
      headers: authHeader(creator.token),
    });
    expect(list.json<{ code: string; uses: number }[]>().map(({ code, uses }) => [code, uses])).toEqual([
      ['ONCE', 1],
      ['SOON-GONE', 0],
    ]);
  });
});

describe('hostile use', () => {
  it(`answers ${QUOTES_PER_ACCOUNT_PER_MINUTE} quotes a minute to an account, then 429: codes are not guessed by trying`, async () => {
    const event = await eventWith(await createCreator(app), [{ name: 'Standard', price: 10, maxTickets: 5 }]);
    const fan = await createUser(app);
    const guesses = await Promise.all(
      Array.from({ length: QUOTES_PER_ACCOUNT_PER_MINUTE + 5 }, (_, n) =>
        post(fan, '/api/orders/quote', { eventId: event.id, quantity: 1, promoCode: `GUESS${n}` }),
      ),
    );
    const statuses = guesses.map((guess) => guess.statusCode);
    expect(statuses.filter((status) => status === 400)).toHaveLength(QUOTES_PER_ACCOUNT_PER_MINUTE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    // Another account is not held back by it.
    expect(
      (await post(await createUser(app), '/api/orders/quote', { eventId: event.id, quantity: 1 })).statusCode,
    ).toBe(200);
  });

  it('takes at most 100 codes an event, and no code text beyond its pattern or length', async () => {
    const creator = await createCreator(app);
    const event = await eventWith(creator, [{ name: 'Standard', price: 10, maxTickets: 5 }]);
    for (let n = 0; n < 100; n += 1) await addCode(creator, event, { code: `CODE${n}`, percentOff: 5 });
    const more = await post(creator, `/api/events/${event.id}/promo-codes`, {
      code: 'ONEMORE',
      percentOff: 5,
    });
    expect(more.statusCode).toBe(409);
    for (const code of ['A'.repeat(41), 'no spaces', '<script>', '']) {
      const refused = await post(creator, `/api/events/${event.id}/promo-codes`, { code, percentOff: 5 });
      expect(refused.statusCode).toBe(400);
      expect(Object.keys(refused.json<ErrorBody>().fields ?? {})).toContain('code');
    }
  });
});

describe('stock', () => {
  it('an expired hold gives its tickets back to its type as well as to the event', async () => {
    const creator = await createCreator(app);
    const event = await eventWith(creator, [
      { name: 'A', price: 10, maxTickets: 4 },
      { name: 'B', price: 10, maxTickets: 4 },
    ]);
    const typeB = typeOf(event, 'B').id;
    const held = await post(await createUser(app), '/api/orders', {
      eventId: event.id,
      quantity: 2,
      ticketTypeId: typeB,
    });
    expect(held.statusCode, held.body).toBe(201);
    const sold = async () =>
      (
        await app.deps.db
          .select({ sold: ticketTypes.sold })
          .from(ticketTypes)
          .where(eq(ticketTypes.id, typeB))
      )[0]?.sold;
    expect(await sold()).toBe(2);
    await expireOrder(app.deps.db, held.json<Order>().id, clockAt(app.deps.config, new Date()));
    expect(await sold()).toBe(0);
    const [after] = await app.deps.db
      .select({ sold: events.sold })
      .from(events)
      .where(eq(events.id, event.id));
    expect(after?.sold).toBe(0);
  });
});
