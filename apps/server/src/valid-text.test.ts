import type { ErrorBody } from '@stagedoor/shared/errors';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  createCreator,
  createEvent,
  eventFormFields,
  eventInput,
  postForm,
  ticketHolder,
  uniqueEmail,
} from '../test/factories';
import { ack, listen, LiveClients } from '../test/live-clients';
import { createTestApp } from '../test/test-app';
import { invalidTextPath } from './valid-text';

const app = await createTestApp();
const clients = new LiveClients(await listen(app));
afterEach(() => clients.closeAll());
afterAll(() => app.close());

const NOT_ALLOWED = 'contains characters that are not allowed';

function expectRefused(response: { statusCode: number; json: () => unknown }, field: string): void {
  expect(response.statusCode).toBe(400);
  const body = response.json() as ErrorBody;
  expect(body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  expect(body.fields?.[field]).toBe(`${field} ${NOT_ALLOWED}`);
}

describe('text holding characters no text may hold', () => {
  it('is refused with 400 naming the field in a JSON body, whatever the route does with it', async () => {
    const registration = await api(app, {
      method: 'POST',
      url: '/api/auth/register/user',
      payload: { firstName: 'Ada\u0000', lastName: 'Fan', email: uniqueEmail(), password: 'correct-horse-1' },
    });
    expectRefused(registration, 'firstName');

    const creator = await createCreator(app);
    const event = await api(app, {
      method: 'POST',
      url: '/api/events',
      headers: authHeader(creator.token),
      payload: eventInput({ description: 'Half a pair \ud83c' }),
    });
    expectRefused(event, 'description');
  });

  it('is refused in a query string, a path and a multipart field', async () => {
    expectRefused(await api(app, { method: 'GET', url: '/api/events?q=a%00b' }), 'q');
    expectRefused(await api(app, { method: 'GET', url: '/api/creators/profile/maya%00' }), 'nickname');

    const creator = await createCreator(app);
    const fields = eventFormFields({ name: 'Bell\u0007 night' });
    expectRefused(await postForm(app, '/api/events', creator.token, fields), 'name');
  });

  it('keeps tabs, line breaks and every script as they are', async () => {
    const creator = await createCreator(app);
    const description = 'Line one\n\tLine two\r\nمرحبا 你好 🎸';
    const event = await createEvent(app, creator, { description });
    expect(event.description).toBe(description);
  });

  it('is refused in a socket event with INVALID_REQUEST, and nothing is stored', async () => {
    const { event, fan } = await ticketHolder(app);
    const socket = await clients.connect(fan);
    expect(await ack(socket, 'joinChat', { eventId: event.id })).toMatchObject({ success: true });

    const answer = await ack(socket, 'chatMessage', { eventId: event.id, content: 'hi\u0000there' });
    expect(answer).toEqual({ success: false, code: 'INVALID_REQUEST', error: `content ${NOT_ALLOWED}` });
    const history = await ack(socket, 'joinChat', { eventId: event.id });
    expect(history).toMatchObject({ success: true, messages: [] });
  });
});

describe('invalidTextPath', () => {
  it('finds the first invalid text in keys and values at any depth', () => {
    expect(invalidTextPath({ a: ['ok', { b: 'x\u001f' }] })).toEqual(['a', '1', 'b']);
    expect(invalidTextPath({ ['k\u0000']: 1 })).toEqual([]);
    expect(invalidTextPath({ a: 'tab\there', b: ['\u{1F3B8}'], c: 3, d: null })).toBeNull();
  });

  it('walks a body nested a million deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}"\\u0000"${']'.repeat(1_000_000)}`) as unknown;
    expect(invalidTextPath(deep)).toHaveLength(1_000_000);
  });
});
