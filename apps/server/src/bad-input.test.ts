import type { ClientToServerEvents } from '@stagedoor/shared/live';
import { ZErrorBody } from '@stagedoor/shared/errors';
import type { LightMyRequestResponse } from 'fastify';
import type { Socket } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  encodeForm,
  ticketHolder,
} from '../test/factories';
import { pixelBombPng } from '../test/images';
import { ack, EVENT_TIMEOUT_MS, listen, LiveClients, settle, type LiveClient } from '../test/live-clients';
import { routesOf } from '../test/routes';
import { createTestApp } from '../test/test-app';

/**
 * What a hostile client may send, at every route and socket event the server has: malformed and wrong
 * input must be refused in the error body (DESIGN.md "Errors"), never answered with a 5xx, and the
 * server must keep answering.
 */
const app = await createTestApp();
const clients = new LiveClients(await listen(app));
afterAll(async () => {
  clients.closeAll();
  await app.close();
});

const { creator, event, fan } = await ticketHolder(app);

async function freshToken(): Promise<string> {
  const login = await api(app, {
    method: 'POST',
    url: '/api/auth/login/creator',
    payload: { email: creator.email, password: creator.password },
  });
  expect(login.statusCode).toBe(200);
  return login.json<{ access_token: string }>().access_token;
}

// Real values (so a refusal is not just "not found") and hostile ones, for every path parameter.
const PARAMS = [
  String(event.id),
  creator.user.nickname,
  '0',
  '-1',
  '1.5',
  '99999999999999999999',
  '1e309',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%5c..%5cwindows',
  '%00',
  '%27%20OR%201%3D1%20--',
  '%F0%9F%8E%B8',
  '%E2%80%AE',
];
const withParam = (path: string, value: string) => path.replace(/:[\w]+(\|:[\w]+)*/g, value);

const LONG = 'x'.repeat(200_000);
const FIELDS = [
  'name',
  'description',
  'price',
  'maxTickets',
  'maxPerBuyer',
  'date',
  'isActive',
  'email',
  'password',
  'currentPassword',
  'newPassword',
  'firstName',
  'lastName',
  'nickname',
  'biography',
  'timeZone',
  'token',
  'eventId',
  'quantity',
  'unitPrice',
];
const allFields = <T>(value: T): Record<string, T> =>
  Object.fromEntries(FIELDS.map((field) => [field, value]));
const JSON_BODIES: unknown[] = [
  [],
  'text',
  42,
  true,
  allFields({ $gt: '' }),
  allFields(['a', 'b']),
  allFields(-1),
  allFields(1e308),
  allFields(LONG),
  allFields('\u0000'),
  allFields('\ud800'),
  allFields('\u202e\ufeff\u200b'),
  allFields("' OR 1=1 --"),
  allFields('../../etc/passwd'),
  allFields('<script>alert(1)</script>'),
  { ...allFields('ok'), extra: 'field', isAdmin: true, role: 'creator', creatorId: 1, sold: -5 },
];
const RAW_JSON = [
  '{"name":',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}',
  'nul',
  '',
];
const HUGE = JSON.stringify({ description: 'x'.repeat(2 * 1024 * 1024) });
const QUERY =
  '?limit=-1&offset=abc&q=%00&from=yesterday&to=1e999&maxPrice=NaN&eventId=%27&limit=2&q[]=1&token=%F0%9F';

async function multipartBodies(): Promise<Array<{ body: Buffer | string; contentType: string }>> {
  const image = { data: await pixelBombPng(), filename: 'bomb.png', type: 'image/png' };
  const form = await encodeForm(allFields('ok'), { image, headerImageUrl: image, profileImageUrl: image });
  const manyFiles = await encodeForm({}, { image: [image, image, image, image, image] });
  const wrongNames = await encodeForm({ 'not-a-field': 'x' }, { 'file[]': image, '': image });
  return [
    form,
    manyFiles,
    wrongNames,
    { body: form.body.subarray(0, form.body.length / 2), contentType: form.contentType },
    { body: form.body, contentType: 'multipart/form-data' },
    { body: 'garbage', contentType: 'multipart/form-data; boundary=x' },
  ];
}

describe('hostile input at every route', () => {
  it('is refused in the error body, never with a 5xx, and the server keeps answering', async () => {
    const routes = routesOf(app);
    expect(routes.length).toBeGreaterThan(40);
    const multipart = await multipartBodies();
    const problems: string[] = [];
    const check = (label: string, response: LightMyRequestResponse) => {
      if (response.statusCode >= 500)
        problems.push(`${label}: ${response.statusCode} ${response.body.slice(0, 200)}`);
      const isJson = String(response.headers['content-type'] ?? '').includes('application/json');
      if (response.statusCode >= 400 && isJson) {
        const body = ZErrorBody.safeParse(response.json());
        if (!body.success || body.data.statusCode !== response.statusCode) {
          problems.push(`${label}: not the error body: ${response.body.slice(0, 200)}`);
        }
      }
    };

    for (const { method, path } of routes) {
      // A fresh session for each route: the sweep also reaches the logout routes, which revoke it.
      for (const [who, headers] of [
        ['anonymous', {}],
        ['creator', authHeader(await freshToken())],
      ] as const) {
        const send = async (label: string, url: string, payload?: string | Buffer, contentType?: string) => {
          const response = await api(app, {
            method: method as 'GET',
            url,
            headers: { ...headers, ...(contentType && { 'content-type': contentType }) },
            ...(payload !== undefined && { payload }),
          });
          check(`${who} ${method} ${url} ${label}`, response);
        };
        for (const value of PARAMS) await send('param', withParam(path, value));
        const url = withParam(path, String(event.id));
        await send('query', `${url}${QUERY}`);
        if (method === 'GET' || method === 'DELETE') continue;
        for (const body of JSON_BODIES)
          await send(
            `json ${JSON.stringify(body).slice(0, 40)}`,
            url,
            JSON.stringify(body),
            'application/json',
          );
        for (const raw of RAW_JSON) await send(`raw ${raw.slice(0, 40)}`, url, raw, 'application/json');
        await send('huge', url, HUGE, 'application/json');
        await send('text/plain', url, 'hello', 'text/plain');
        for (const form of multipart)
          await send(`multipart ${form.contentType}`, url, form.body, form.contentType);
      }
    }
    expect(problems).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await api(app, { method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  }, 300_000);
});

/** Every event a client may send, and whether it is acknowledged: the record's type makes it list them all. */
const CLIENT_EVENTS = {
  connectToStream: 'acked',
  startStream: 'acked',
  stopStream: 'acked',
  joinStream: 'acked',
  joinChat: 'acked',
  chatMessage: 'acked',
  deleteChatMessage: 'acked',
  muteUser: 'acked',
  offer: 'unacked',
  answer: 'unacked',
  'ice-candidate': 'unacked',
  streamLayout: 'unacked',
} satisfies Record<keyof ClientToServerEvents, 'acked' | 'unacked'>;

const PAYLOADS: unknown[] = [
  undefined,
  null,
  'text',
  42,
  [],
  { eventId: '1; drop table accounts; --' },
  { eventId: -1, messageId: 'x', userId: {}, content: LONG },
  { eventId: event.id, content: '\u0000', offer: { type: 'offer', sdp: 42 }, targetId: LONG },
  { eventId: event.id, candidate: { candidate: LONG }, answer: null, layout: 'x'.repeat(1000) },
  { eventId: 1e308, __proto__: { polluted: true } },
];

/** The payload aimed at `eventId` where it names the sweep's event (so it reaches the event's chat). */
const withEvent = (payload: unknown, eventId: number) =>
  typeof payload === 'object' && payload !== null && 'eventId' in payload && payload.eventId === event.id
    ? { ...payload, eventId }
    : payload;

describe('hostile payloads on every socket event', () => {
  it('are refused without INTERNAL, and the socket keeps answering', async () => {
    // A creator and an event of its own: the route sweep logged the creator out, cancelled the event and
    // used up the events the creator may create in an hour.
    const organiser = await createCreator(app);
    const chatEvent = await createEvent(app, organiser);
    await buyTicketsOk(app, fan, chatEvent.id, 1);
    const sockets: LiveClient[] = [await clients.connect(fan), await clients.connect(organiser)];
    // In the event's chat first, so payloads get past "join the chat first" to the database.
    for (const socket of sockets) {
      expect(await ack(socket, 'joinChat', { eventId: chatEvent.id })).toMatchObject({ success: true });
    }
    const internal: string[] = [];
    for (const socket of sockets) {
      for (const [name, kind] of Object.entries(CLIENT_EVENTS)) {
        for (const payload of PAYLOADS) {
          const raw = socket as unknown as Socket;
          if (kind === 'unacked') {
            raw.emit(name, withEvent(payload, chatEvent.id));
            continue;
          }
          const answer = (await raw.timeout(EVENT_TIMEOUT_MS).emitWithAck(name, payload)) as {
            code?: string;
          };
          if (answer.code === 'INTERNAL') internal.push(`${name} ${JSON.stringify(payload)?.slice(0, 60)}`);
        }
      }
      await settle(socket);
    }
    expect(internal).toEqual([]);
    expect(sockets.every((socket) => socket.connected)).toBe(true);
  }, 120_000);
});
