import type { ErrorBody } from '@stagedoor/shared/errors';
import { PRICE_BELOW_CARD_MINIMUM_MESSAGE, type CreatorStats, type Event } from '@stagedoor/shared/events';
import { DEFAULT_MAX_PER_BUYER, IMAGE_MAX_BYTES } from '@stagedoor/shared/limits';
import sharp from 'sharp';
import ical from 'node-ical';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  daysFromNow,
  eventFormFields,
  eventInput,
  eventWithSales,
  moveEventDate,
  postForm,
  type FormFile,
  type TestAccount,
} from '../../../test/factories';
import { EVENTS_PER_CREATOR } from './events.routes';
import { pngWithMetadata, storedImageCount } from '../../../test/images';
import { createTestApp } from '../../../test/test-app';

const app = await createTestApp();
afterAll(() => app.close());

const IMMUTABLE = 'public, max-age=31536000, immutable';

const poster = async (): Promise<FormFile> => ({
  data: await pngWithMetadata(120, 90),
  filename: 'poster.png',
  type: 'image/png',
});

const get = (url: string, token?: string) =>
  api(app, { method: 'GET', url, headers: token ? authHeader(token) : {} });

const postJson = (url: string, token: string, payload: unknown) =>
  api(app, { method: 'POST', url, headers: authHeader(token), payload: payload as object });

async function update(
  creator: TestAccount,
  eventId: number,
  payload: Record<string, unknown>,
): Promise<{ statusCode: number; body: Event & ErrorBody }> {
  const response = await postJson(`/api/events/${eventId}`, creator.token, payload);
  return { statusCode: response.statusCode, body: response.json() };
}

describe('POST /api/events', () => {
  it('creates an event from JSON and answers it with 201', async () => {
    const creator = await createCreator(app, { firstName: 'Maya', lastName: 'Rivers' });
    const date = daysFromNow(10);
    const response = await postJson(
      '/api/events',
      creator.token,
      eventInput({ name: '  Rooftop set ', price: 19.99, maxTickets: 50, date }),
    );
    expect(response.statusCode).toBe(201);
    const event = response.json<Event>();
    expect(event).toEqual({
      id: expect.any(Number),
      name: 'Rooftop set',
      description: 'Songs from the new record, live.',
      image: null,
      price: 19.99,
      maxTickets: 50,
      maxPerBuyer: DEFAULT_MAX_PER_BUYER,
      ticketsLeft: 50,
      date,
      eventDate: date,
      isActive: true,
      cancelledAt: null,
      replayEnabled: true,
      hasReplay: false,
      creatorId: creator.user.id,
      creator: { nickname: creator.user.nickname, firstName: 'Maya', lastName: 'Rivers', timeZone: 'UTC' },
      ticketTypes: [
        {
          id: expect.any(Number),
          name: 'General admission',
          price: 19.99,
          maxTickets: 50,
          ticketsLeft: 50,
          salesStart: null,
          salesEnd: null,
          payWhatYouWant: null,
        },
      ],
    });
    expect((await get(`/api/events/${event.id}`)).json<Event>()).toEqual(event);
  });

  it('creates an event from a multipart form with an image, served re-encoded and cached for good', async () => {
    const creator = await createCreator(app);
    const response = await postForm(
      app,
      '/api/events',
      creator.token,
      eventFormFields({ price: '0', maxTickets: '20', isActive: 'false' }),
      { image: await poster() },
    );
    expect(response.statusCode, response.body).toBe(201);
    const event = response.json<Event>();
    expect(event).toMatchObject({ price: 0, maxTickets: 20, isActive: false });
    expect(event.image).toMatch(/^[0-9a-f-]{36}\.png$/);

    const served = await get(`/api/events/image/${event.image}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['cache-control']).toBe(IMMUTABLE);
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata).toMatchObject({ format: 'png', width: 120, height: 90 });
    expect(metadata.exif).toBeUndefined();
  });

  it('creates an event from a multipart form without an image', async () => {
    const creator = await createCreator(app);
    const response = await postForm(app, '/api/events', creator.token, eventFormFields());
    expect(response.statusCode).toBe(201);
    expect(response.json<Event>()).toMatchObject({ image: null, isActive: true });
  });

  it('lists every invalid field at once', async () => {
    const creator = await createCreator(app);
    const response = await postJson('/api/events', creator.token, {
      name: '   ',
      description: '',
      price: -1,
      maxTickets: 0,
      date: 'next friday',
      isActive: 'maybe',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'Event name is required',
      fields: {
        name: 'Event name is required',
        description: 'Description is required',
        price: 'Price must be 0 or more',
        maxTickets: 'Maximum tickets must be at least 1',
        date: 'Event date must be a valid date and time',
        isActive: 'Active must be true or false',
      },
    });
  });

  it('refuses a price a card cannot pay (under $0.50 but not free), on creation and on change', async () => {
    const creator = await createCreator(app);
    for (const price of [0.01, 0.33, 0.49]) {
      const response = await postJson('/api/events', creator.token, eventInput({ price }));
      expect(response.statusCode, `price ${price}`).toBe(400);
      expect(response.json<ErrorBody>().fields).toEqual({ price: PRICE_BELOW_CARD_MINIMUM_MESSAGE });
    }
    for (const price of [0, 0.5]) {
      const response = await postJson('/api/events', creator.token, eventInput({ price }));
      expect(response.statusCode, `price ${price}`).toBe(201);
    }
    const event = await createEvent(app, creator, { price: 10 });
    const changed = await update(creator, event.id, { price: 0.33 });
    expect(changed.statusCode).toBe(400);
    expect(changed.body.fields).toEqual({ price: PRICE_BELOW_CARD_MINIMUM_MESSAGE });
  });

  it('names every missing field of an empty body', async () => {
    const creator = await createCreator(app);
    const response = await api(app, {
      method: 'POST',
      url: '/api/events',
      headers: authHeader(creator.token),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({
      name: 'Event name is required',
      description: 'Description is required',
      price: 'Price is required',
      maxTickets: 'Maximum tickets is required',
      date: 'Event date is required',
    });
  });

  it.each([
    ['price', 12.345, 'Price can have at most two decimals'],
    ['price', 'abc', 'Price must be a number'],
    ['price', '', 'Price must be a number'],
    ['price', true, 'Price must be a number'],
    ['price', 100_000.01, 'Price must be at most 100000'],
    ['maxTickets', 1.5, 'Maximum tickets must be a whole number'],
    ['maxTickets', '0', 'Maximum tickets must be at least 1'],
    ['maxTickets', null, 'Maximum tickets must be a number'],
    ['date', daysFromNow(-1), 'Event date must be in the future'],
    ['date', '2030-02-30T20:00:00Z', 'Event date must be a valid date and time'],
  ])('refuses %s = %j: %s', async (field, value, message) => {
    const creator = await createCreator(app);
    const response = await postJson('/api/events', creator.token, eventInput({ [field]: value }));
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({ [field]: message });
  });

  it('validates multipart text fields by the same rules', async () => {
    const creator = await createCreator(app);
    const response = await postForm(
      app,
      '/api/events',
      creator.token,
      eventFormFields({ price: '12.345', maxTickets: '1.5', date: daysFromNow(-2) }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>().fields).toEqual({
      price: 'Price can have at most two decimals',
      maxTickets: 'Maximum tickets must be a whole number',
      date: 'Event date must be in the future',
    });
  });

  it('judges the image by its bytes, with the event form message, and keeps nothing', async () => {
    const creator = await createCreator(app);
    const imagesBefore = await storedImageCount(app);
    const response = await postForm(app, '/api/events', creator.token, eventFormFields(), {
      image: { data: Buffer.from('GIF89a, or so it says'), filename: 'poster.png', type: 'image/png' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: 'Please select a valid JPG or PNG image',
      fields: { image: 'Please select a valid JPG or PNG image' },
    });
    expect(await storedImageCount(app)).toBe(imagesBefore);
    expect((await get(`/api/events/creator/${creator.user.id}`, creator.token)).json()).toEqual([]);
  });

  it('refuses an image over 5 MB with a 413 and the event form message', async () => {
    const creator = await createCreator(app);
    const big = Buffer.concat([await pngWithMetadata(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    const response = await postForm(app, '/api/events', creator.token, eventFormFields(), {
      image: { data: big, filename: 'big.png', type: 'image/png' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'Image size must be less than 5MB',
      fields: { image: 'Image size must be less than 5MB' },
    });
  });

  it('is for signed-in creators only', async () => {
    const anonymous = await api(app, { method: 'POST', url: '/api/events', payload: eventInput() });
    expect(anonymous.statusCode).toBe(401);
    const spectator = await createUser(app);
    const response = await postJson('/api/events', spectator.token, eventInput());
    expect(response.statusCode).toBe(403);
    expect(response.json<ErrorBody>().message).toBe('Only creator accounts can do this');
  });

  it('lets a creator create EVENTS_PER_CREATOR.max events an hour, then answers 429', async () => {
    const creator = await createCreator(app);
    for (let n = 0; n < EVENTS_PER_CREATOR.max; n += 1) await createEvent(app, creator);
    const refused = await postJson('/api/events', creator.token, eventInput());
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(3000);
    expect(refused.json<ErrorBody>().message).toMatch(
      /^Too many attempts\. Please try again in \d+ minutes\.$/,
    );
    // Another creator is not held back.
    await createEvent(app, await createCreator(app));
  });
});

describe('GET /api/events', () => {
  const listed = async (query = '') => {
    const response = await get(`/api/events${query}`);
    expect(response.statusCode).toBe(200);
    return response.json<Event[]>();
  };

  it('lists the active events still to come, soonest first, a page at a time', async () => {
    // Within the next two hours, so these come before every other event this file creates.
    const hours = (n: number) => daysFromNow(n / 24);
    const creator = await createCreator(app);
    for (const hour of [1.5, 0.75, 1.75, 0.5, 1]) {
      await createEvent(app, creator, { name: `In ${hour} h`, date: hours(hour) });
    }
    await createEvent(app, creator, { name: 'Inactive', date: hours(0.6), isActive: false });
    const past = await createEvent(app, creator, { name: 'Past', date: hours(0.7) });
    await moveEventDate(app, past.id, hours(-1));

    const names = async (query: string) => (await listed(query)).map((event) => event.name);
    expect(await names('?limit=5')).toEqual(['In 0.5 h', 'In 0.75 h', 'In 1 h', 'In 1.5 h', 'In 1.75 h']);
    expect(await names('?limit=2')).toEqual(['In 0.5 h', 'In 0.75 h']);
    expect(await names('?limit=2&offset=2')).toEqual(['In 1 h', 'In 1.5 h']);
    expect(await names('?limit=1&offset=4')).toEqual(['In 1.75 h']);
    const everything = await listed('?limit=100');
    expect(everything.every((event) => event.isActive && Date.parse(event.date) > Date.now())).toBe(true);
    expect(everything.map((event) => event.date)).toEqual(everything.map((event) => event.date).sort());
  });

  it('answers 50 events by default and at most 100 on request', async () => {
    const existing = (await listed('?limit=100')).length;
    // Several creators, since one may create EVENTS_PER_CREATOR.max an hour.
    let creator = await createCreator(app);
    for (let n = existing; n < 101; n += 1) {
      if (n % EVENTS_PER_CREATOR.max === 0) creator = await createCreator(app);
      await createEvent(app, creator, { date: daysFromNow(20 + n) });
    }

    expect(await listed()).toHaveLength(50);
    expect(await listed('?limit=100')).toHaveLength(100);
    expect(await listed('?limit=100&offset=100')).toHaveLength(1);
    const tooMany = await get('/api/events?limit=101');
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<ErrorBody>().fields).toEqual({ limit: 'limit must be at most 100' });
    const bad = await get('/api/events?limit=0&offset=-1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<ErrorBody>().fields).toEqual({
      limit: 'limit must be at least 1',
      offset: 'offset must be at least 0',
    });
  });

  it('shows the tickets left after sales', async () => {
    const { event } = await eventWithSales(app, {
      event: { maxTickets: 10, date: daysFromNow(0.2) },
      sales: [3],
    });
    const [shown] = (await listed('?limit=100')).filter(({ id }) => id === event.id);
    expect(shown).toMatchObject({ maxTickets: 10, ticketsLeft: 7 });
  });
});

describe('GET /api/events/:id/calendar.ics', () => {
  it('answers the show as a calendar invitation: start in UTC, 90 minutes, the event page as its link', async () => {
    const creator = await createCreator(app, { firstName: 'Maya', lastName: 'Rivers' });
    // Calendar times have whole seconds.
    const date = new Date(Math.floor(Date.now() / 1000) * 1000 + 7 * 86_400_000).toISOString();
    const event = await createEvent(app, creator, { name: 'Rooftop, live', date });
    const response = await get(`/api/events/${event.id}/calendar.ics`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(response.body).toMatch(/^DTSTART:\d{8}T\d{6}Z\r$/m);
    const entries = Object.values(ical.sync.parseICS(response.body)).filter(
      (entry) => entry?.type === 'VEVENT',
    );
    expect(entries).toHaveLength(1);
    const [show] = entries as ical.VEvent[];
    expect(show?.summary).toBe('Rooftop, live');
    expect(show?.start.toISOString()).toBe(event.date);
    expect(show?.end?.getTime()).toBe(Date.parse(event.date) + 90 * 60_000);
    expect(response.body).toContain(`URL;VALUE=URI:http://localhost:80/events/${event.id}`);
    expect((await get('/api/events/999999/calendar.ics')).statusCode).toBe(404);
  });

  it("keeps line breaks in a name or description inside their field: no line of the creator's making", async () => {
    const creator = await createCreator(app);
    const injected = 'Show\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nSUMMARY:Free money\nX-INJECTED:1';
    const event = await createEvent(app, creator, { name: injected, description: injected });
    const { body } = await get(`/api/events/${event.id}/calendar.ics`);
    expect(body.match(/^BEGIN:VEVENT\r$/gm)).toHaveLength(1);
    expect(body).not.toMatch(/^(X-INJECTED|SUMMARY:Free)/m);
    const entries = Object.values(ical.sync.parseICS(body)).filter((entry) => entry?.type === 'VEVENT');
    expect(entries).toHaveLength(1);
    expect((entries[0] as ical.VEvent).summary).toBe(injected.replaceAll('\r\n', '\n'));
  });
});

describe('GET /api/events/:id', () => {
  it('answers any event, inactive and past ones too', async () => {
    const creator = await createCreator(app);
    const inactive = await createEvent(app, creator, { isActive: false });
    expect((await get(`/api/events/${inactive.id}`)).json<Event>()).toEqual(inactive);
    const past = await createEvent(app, creator);
    await moveEventDate(app, past.id, '2020-01-01T20:00:00.000Z');
    expect((await get(`/api/events/${past.id}`)).json<Event>()).toMatchObject({
      date: '2020-01-01T20:00:00.000Z',
      eventDate: '2020-01-01T20:00:00.000Z',
    });
  });

  it('answers 404 for an unknown id and 400 naming `id` for one that cannot be an id', async () => {
    const unknown = await get('/api/events/2147483647');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json<ErrorBody>()).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Event not found',
    });
    for (const [id, message] of [
      ['abc', 'Event id must be a number'],
      ['0', 'Event id must be a positive whole number'],
      ['1.5', 'Event id must be a whole number'],
      ['99999999999', 'Event id is too large'],
    ]) {
      const response = await get(`/api/events/${id}`);
      expect(response.statusCode, id).toBe(400);
      expect(response.json<ErrorBody>().fields, id).toEqual({ id: message });
    }
  });
});

describe('POST /api/events/:id', () => {
  it('changes only the fields sent (JSON)', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const { statusCode, body } = await update(creator, event.id, { name: 'Encore', price: '7.25' });
    expect(statusCode).toBe(200);
    expect(body).toEqual({
      ...event,
      name: 'Encore',
      price: 7.25,
      ticketTypes: [{ ...event.ticketTypes[0], price: 7.25 }],
    });
    expect((await get(`/api/events/${event.id}`)).json<Event>()).toEqual(body);
  });

  it('sets isActive from the form, and back to true when it is absent (spec §3)', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    expect((await update(creator, event.id, { isActive: 'false' })).body.isActive).toBe(false);
    expect((await update(creator, event.id, { description: 'Now with strings' })).body).toMatchObject({
      description: 'Now with strings',
      isActive: true,
    });
  });

  it('replaces the image from a multipart form and deletes the old one', async () => {
    const creator = await createCreator(app);
    const created = await postForm(app, '/api/events', creator.token, eventFormFields(), {
      image: await poster(),
    });
    const event = created.json<Event>();
    const response = await postForm(
      app,
      `/api/events/${event.id}`,
      creator.token,
      { maxTickets: '30' },
      { image: await poster() },
    );
    expect(response.statusCode).toBe(200);
    const updated = response.json<Event>();
    expect(updated).toEqual({
      ...event,
      maxTickets: 30,
      maxPerBuyer: DEFAULT_MAX_PER_BUYER,
      ticketsLeft: 30,
      image: expect.any(String),
      ticketTypes: [{ ...event.ticketTypes[0], maxTickets: 30, ticketsLeft: 30 }],
    });
    expect(updated.image).not.toBe(event.image);
    expect((await get(`/api/events/image/${event.image}`)).statusCode).toBe(404);
    expect((await get(`/api/events/image/${updated.image}`)).statusCode).toBe(200);
  });

  it('keeps the old image and stores no new one when the update is refused', async () => {
    const creator = await createCreator(app);
    const created = await postForm(app, '/api/events', creator.token, eventFormFields({ maxTickets: 5 }), {
      image: await poster(),
    });
    const event = created.json<Event>();
    await buyTicketsOk(app, await createUser(app), event.id, 3);
    const imagesBefore = await storedImageCount(app);

    const response = await postForm(
      app,
      `/api/events/${event.id}`,
      creator.token,
      { maxTickets: '2' },
      { image: await poster() },
    );
    expect(response.statusCode).toBe(409);
    expect(await storedImageCount(app)).toBe(imagesBefore);
    expect((await get(`/api/events/image/${event.image}`)).statusCode).toBe(200);
  });

  it('refuses fewer tickets than already sold, and accepts exactly that many', async () => {
    const { creator, event } = await eventWithSales(app, { event: { maxTickets: 10 }, sales: [3] });

    const refused = await update(creator, event.id, { maxTickets: 2, name: 'Smaller' });
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message: 'Maximum tickets cannot be lower than the 3 tickets already sold',
      fields: { maxTickets: 'Maximum tickets cannot be lower than the 3 tickets already sold' },
    });
    expect((await get(`/api/events/${event.id}`)).json<Event>().name).toBe(event.name);

    const accepted = await update(creator, event.id, { maxTickets: 3 });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.body).toMatchObject({ maxTickets: 3, ticketsLeft: 0 });
  });

  it('refuses a new date in the past, but not the stored date of an event that has started', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const refused = await update(creator, event.id, { date: daysFromNow(-1) });
    expect(refused.statusCode).toBe(400);
    expect(refused.body.fields).toEqual({ date: 'Event date must be in the future' });

    const started = '2024-05-01T19:30:00.000Z';
    await moveEventDate(app, event.id, started);
    const renamed = await update(creator, event.id, { name: 'Recording', date: '2024-05-01T21:30:00+02:00' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.body).toMatchObject({ name: 'Recording', date: started });
  });

  it('lists a bad date and too few tickets together, as a 400', async () => {
    const { creator, event } = await eventWithSales(app, { event: { maxTickets: 4 }, sales: [2] });
    const { statusCode, body } = await update(creator, event.id, { maxTickets: 1, date: daysFromNow(-3) });
    expect(statusCode).toBe(400);
    expect(body.fields).toEqual({
      date: 'Event date must be in the future',
      maxTickets: 'Maximum tickets cannot be lower than the 2 tickets already sold',
    });
  });

  it('validates the fields sent by the creation rules', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const { statusCode, body } = await update(creator, event.id, {
      name: '',
      price: -0.5,
      maxTickets: 'many',
    });
    expect(statusCode).toBe(400);
    expect(body.fields).toEqual({
      name: 'Event name is required',
      price: 'Price must be 0 or more',
      maxTickets: 'Maximum tickets must be a number',
    });
  });

  it("is for the event's creator only", async () => {
    const owner = await createCreator(app);
    const event = await createEvent(app, owner);
    const other = await createCreator(app);
    const forbidden = await update(other, event.id, { name: 'Mine now' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.body.message).toBe('You can only manage your own events');
    expect((await update(await createUser(app), event.id, { name: 'Fan edit' })).statusCode).toBe(403);
    const anonymous = await api(app, { method: 'POST', url: `/api/events/${event.id}`, payload: {} });
    expect(anonymous.statusCode).toBe(401);
    expect((await update(owner, 2147483647, { name: 'Ghost' })).statusCode).toBe(404);
    expect((await get(`/api/events/${event.id}`)).json<Event>()).toEqual(event);
  });
});

describe('DELETE /api/events/:id', () => {
  const remove = (eventId: number, token?: string) =>
    api(app, { method: 'DELETE', url: `/api/events/${eventId}`, headers: token ? authHeader(token) : {} });

  it('deletes an event without sales, and its image', async () => {
    const creator = await createCreator(app);
    const created = await postForm(app, '/api/events', creator.token, eventFormFields(), {
      image: await poster(),
    });
    const event = created.json<Event>();
    const response = await remove(event.id, creator.token);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await get(`/api/events/${event.id}`)).statusCode).toBe(404);
    expect((await get(`/api/events/image/${event.image}`)).statusCode).toBe(404);
  });

  it('refuses to delete an event with sold tickets and says to cancel it', async () => {
    const { creator, event } = await eventWithSales(app);
    const response = await remove(event.id, creator.token);
    expect(response.statusCode).toBe(409);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 409,
      code: 'CONFLICT',
      message:
        'This event has sold tickets and cannot be deleted. Cancel it instead: every buyer is refunded.',
    });
    expect((await get(`/api/events/${event.id}`)).statusCode).toBe(200);
  });

  it("is for the event's creator only", async () => {
    const owner = await createCreator(app);
    const event = await createEvent(app, owner);
    expect((await remove(event.id)).statusCode).toBe(401);
    const other = await remove(event.id, (await createCreator(app)).token);
    expect(other.statusCode).toBe(403);
    expect(other.json<ErrorBody>().message).toBe('You can only manage your own events');
    expect((await remove(2147483647, owner.token)).statusCode).toBe(404);
    expect((await get(`/api/events/${event.id}`)).statusCode).toBe(200);
  });
});

describe('GET /api/events/creator/:creatorId', () => {
  async function creatorWithEvents(): Promise<TestAccount> {
    const creator = await createCreator(app);
    await createEvent(app, creator, { name: 'Later', date: daysFromNow(20) });
    await createEvent(app, creator, { name: 'Hidden', date: daysFromNow(5), isActive: false });
    await createEvent(app, creator, { name: 'Soon', date: daysFromNow(2) });
    for (const [name, daysAgo] of [
      ['Last year', 365],
      ['Last week', 7],
    ] as const) {
      const event = await createEvent(app, creator, { name });
      await moveEventDate(app, event.id, daysFromNow(-daysAgo));
    }
    const hiddenPast = await createEvent(app, creator, { name: 'Hidden past', isActive: false });
    await moveEventDate(app, hiddenPast.id, daysFromNow(-30));
    return creator;
  }

  const names = async (creatorId: number, authorization?: string, query = '') => {
    const response = await api(app, {
      method: 'GET',
      url: `/api/events/creator/${creatorId}${query}`,
      headers: authorization ? { authorization } : {},
    });
    expect(response.statusCode).toBe(200);
    return response.json<Event[]>().map((event) => event.name);
  };

  it('shows the creator all their events: upcoming soonest first, then past most recent first', async () => {
    const creator = await creatorWithEvents();
    expect(await names(creator.user.id, `Bearer ${creator.token}`)).toEqual([
      'Soon',
      'Hidden',
      'Later',
      'Last week',
      'Hidden past',
      'Last year',
    ]);
  });

  it('shows anyone else the active ones only', async () => {
    const creator = await creatorWithEvents();
    const publicView = ['Soon', 'Later', 'Last week', 'Last year'];
    expect(await names(creator.user.id)).toEqual(publicView);
    expect(await names(creator.user.id, `Bearer ${(await createCreator(app)).token}`)).toEqual(publicView);
    // A stale token on a public page is a visitor, not a 401 that would log the web app out.
    expect(await names(creator.user.id, 'Bearer not-a-token')).toEqual(publicView);
  });

  it('answers a page at a time, as GET /api/events (at most 100)', async () => {
    const creator = await creatorWithEvents();
    const owner = `Bearer ${creator.token}`;
    expect(await names(creator.user.id, owner, '?limit=2')).toEqual(['Soon', 'Hidden']);
    expect(await names(creator.user.id, owner, '?limit=2&offset=2')).toEqual(['Later', 'Last week']);
    expect(await names(creator.user.id, undefined, '?limit=3&offset=1')).toEqual([
      'Later',
      'Last week',
      'Last year',
    ]);
    expect(await names(creator.user.id, undefined, '?offset=4')).toEqual([]);
    const tooMany = await get(`/api/events/creator/${creator.user.id}?limit=101`);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json<ErrorBody>().fields).toEqual({ limit: 'limit must be at most 100' });
    const publicPage = await get(`/api/creators/${creator.user.nickname}/events?limit=1&offset=1`);
    expect(publicPage.json<Event[]>().map((event) => event.name)).toEqual(['Later']);
  });

  it('answers 404 for an id that is not a creator', async () => {
    const spectator = await createUser(app);
    for (const id of [spectator.user.id, 2147483647]) {
      const response = await get(`/api/events/creator/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json<ErrorBody>().message).toBe('Creator not found');
    }
  });
});

describe('GET /api/events/creators/:id/details', () => {
  it('answers the event for editing to its creator only', async () => {
    const owner = await createCreator(app);
    const event = await createEvent(app, owner, { isActive: false });
    const details = (token?: string, id = event.id) => get(`/api/events/creators/${id}/details`, token);

    const own = await details(owner.token);
    expect(own.statusCode).toBe(200);
    expect(own.json<Event>()).toEqual(event);
    expect((await details()).statusCode).toBe(401);
    expect((await details((await createCreator(app)).token)).statusCode).toBe(403);
    expect((await details((await createUser(app)).token)).statusCode).toBe(403);
    expect((await details(owner.token, 2147483647)).statusCode).toBe(404);
  });
});

describe('GET /api/events/creator/stats', () => {
  const stats = async (creator: TestAccount) => {
    const response = await api(app, {
      method: 'GET',
      url: '/api/events/creator/stats',
      headers: authHeader(creator.token),
    });
    expect(response.statusCode).toBe(200);
    return response.json<CreatorStats>();
  };

  it('adds up the caller’s events, tickets sold and revenue at the prices paid', async () => {
    const creator = await createCreator(app);
    expect(await stats(creator)).toEqual({ totalTicketsSold: 0, totalRevenue: 0, totalEvents: 0 });

    const concert = await createEvent(app, creator, { price: 12.5 });
    const workshop = await createEvent(app, creator, { price: 0.55 });
    await createEvent(app, creator, { price: 99 });
    const fan = await createUser(app);
    await buyTicketsOk(app, fan, concert.id, 3);
    await buyTicketsOk(app, fan, workshop.id, 7);
    await update(creator, concert.id, { price: 20 });
    await buyTicketsOk(app, fan, concert.id, 1);
    // Another creator's sales are not this creator's.
    await buyTicketsOk(app, fan, (await createEvent(app, await createCreator(app))).id, 5);

    expect(await stats(creator)).toEqual({
      totalTicketsSold: 11,
      totalRevenue: 61.35,
      totalEvents: 3,
    });
  });

  it('is for creators only, and "stats" is never read as a creator id', async () => {
    const anonymous = await get('/api/events/creator/stats');
    expect(anonymous.statusCode).toBe(401);
    const spectator = await get('/api/events/creator/stats', (await createUser(app)).token);
    expect(spectator.statusCode).toBe(403);
  });
});
