import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AuthResponse } from '@stagedoor/shared/accounts';
import type { Event } from '@stagedoor/shared/events';
import {
  SOCKET_PATH,
  type ChatMessage,
  type ClientToServerEvents,
  type ServerToClientEvents,
} from '@stagedoor/shared/live';
import { io, type Socket } from 'socket.io-client';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { eventInput, uniqueEmail } from '../test/factories';
import { freePort } from '../test/free-port';
import { ack, listen, waitFor, type LiveClient } from '../test/live-clients';
import { startNginx } from '../test/nginx-server';
import { startRedisServer } from '../test/redis-server';
import { createTestApp, sameDeploymentAs } from '../test/test-app';
import type { App } from './app';

const run = promisify(execFile);
const DOCS = new URL('../../../docs/', import.meta.url).pathname;
const METRICS_TOKEN = 'prometheus-scrape-token-0123456789';

/** docs/nginx.conf.example as shipped, with this test's addresses, ports and certificate in its place. */
function siteConfig(example: string, values: Record<string, string>): string {
  let site = example;
  for (const [shipped, ours] of Object.entries(values)) {
    expect(site.split(shipped).length - 1, `docs/nginx.conf.example has "${shipped}" once`).toBe(1);
    site = site.replace(shipped, ours);
  }
  return site;
}

const example = await readFile(path.join(DOCS, 'nginx.conf.example'), 'utf8');
const certDir = await mkdtemp(path.join(tmpdir(), 'stagedoor-tls-'));
const [certFile, keyFile] = [path.join(certDir, 'cert.pem'), path.join(certDir, 'key.pem')];
await run('openssl', [
  ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1'],
  ...['-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile],
]);
const ca = await readFile(certFile, 'utf8');

/**
 * Two instances of one deployment as docs/deploy.md runs them: the same PostgreSQL and Redis, nginx's
 * address in TRUST_PROXY. PGlite cannot be shared, so there both upstream servers are one instance.
 */
const redis = await startRedisServer();
const env = { REDIS_URL: redis.url, TRUST_PROXY: '127.0.0.1', METRICS_TOKEN };
const first = await createTestApp(env);
const second: App =
  inject('databaseDriver') === 'postgres'
    ? await createTestApp({ ...sameDeploymentAs(first), ...env })
    : first;
const instances = second === first ? [first] : [first, second];
const [urlA, urlB] = [await listen(first), second === first ? null : await listen(second)];
const portOf = (url: string) => new URL(url).port;

const [httpPort, httpsPort] = [await freePort(), await freePort()];
const nginx = await startNginx(
  siteConfig(example, {
    'server 10.0.0.11:3000': `server 127.0.0.1:${portOf(urlA)}`,
    'server 10.0.0.12:3000': `server 127.0.0.1:${portOf(urlB ?? urlA)}`,
    'listen 80;': `listen 127.0.0.1:${httpPort};`,
    'listen 443 ssl;': `listen 127.0.0.1:${httpsPort} ssl;`,
    '/etc/letsencrypt/live/stagedoor.example/fullchain.pem': certFile,
    '/etc/letsencrypt/live/stagedoor.example/privkey.pem': keyFile,
  }),
  [httpPort, httpsPort],
);
const origin = `https://127.0.0.1:${httpsPort}`;
const agent = new https.Agent({ ca, keepAlive: true });
const sockets: LiveClient[] = [];

afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  agent.destroy();
  await nginx.stop();
  await second.close();
  await first.close();
  await redis.stop();
  await rm(certDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request to `origin` (nginx), as a browser of the site sends it. */
function send(
  method: string,
  url: string,
  { token, json, headers = {} }: { token?: string; json?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const body = json === undefined ? undefined : JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const request = https.request(`${origin}${url}`, {
      method,
      agent,
      headers: {
        ...(body && { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
        ...headers,
      },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function register(role: 'creator' | 'user'): Promise<AuthResponse> {
  const answer = await send('POST', `/api/auth/register/${role}`, {
    json: {
      firstName: 'Through',
      lastName: 'Nginx',
      email: uniqueEmail(role),
      password: 'correct-horse-battery',
    },
  });
  expect(answer.status, answer.body).toBe(201);
  return JSON.parse(answer.body) as AuthResponse;
}

/** A socket through nginx (wss, SOCKET_PATH), signed in as apps/web's socket is. */
async function connect(token: string): Promise<LiveClient> {
  const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(origin, {
    path: SOCKET_PATH,
    transports: ['websocket'],
    auth: { token: `Bearer ${token}` },
    ca,
    reconnection: false,
    forceNew: true,
  });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) =>
    socket.once('connect', () => resolve()).once('connect_error', reject),
  );
  return socket;
}

/** The instance each of this test's connected sockets reached, by its count of sockets. */
const socketCounts = () => instances.map((instance) => instance.live.connectedSockets());

describe('docs/nginx.conf.example in front of two instances', () => {
  it('is the configuration docs/deploy.md shows', async () => {
    const guide = await readFile(path.join(DOCS, 'deploy.md'), 'utf8');
    expect(guide).toContain(example.trim());
  });

  it('sends plain HTTP to HTTPS, passes the request id, and keeps /metrics private', async () => {
    const plain = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http.get(`http://127.0.0.1:${httpPort}/events?q=jazz`, resolve).on('error', reject),
    );
    plain.resume();
    expect(plain.statusCode).toBe(301);
    expect(plain.headers.location).toBe('https://127.0.0.1/events?q=jazz');

    const health = await send('GET', '/api/health');
    expect(health.status).toBe(200);
    // nginx's $request_id (32 hex digits), kept by the server: not an id of its own (a UUID).
    expect(health.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/);

    const metrics = await send('GET', '/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(404);
  });

  it('plays a purchase and a chat message: the creator on one instance, the fan on the other', async () => {
    const creator = await register('creator');
    const created = await send('POST', '/api/events', { token: creator.access_token, json: eventInput() });
    expect(created.status, created.body).toBe(201);
    const event = JSON.parse(created.body) as Event;

    const fan = await register('user');
    const bought = await send('POST', '/api/orders', {
      token: fan.access_token,
      json: { eventId: event.id, quantity: 2 },
    });
    expect(bought.status, bought.body).toBe(201);
    expect(JSON.parse(bought.body)).toMatchObject({
      status: 'completed',
      quantity: 2,
      event: { id: event.id },
    });

    // Links are made for the address the fan used, https included: Host and X-Forwarded-Proto came
    // through, from an address in TRUST_PROXY.
    const calendar = await send('GET', `/api/events/${event.id}/calendar.ics`);
    expect(calendar.status).toBe(200);
    expect(calendar.body.replace(/\r\n[ \t]/g, '')).toContain(`URL;VALUE=URI:${origin}/events/${event.id}`);

    const backstage = await connect(creator.access_token);
    const creatorOn = socketCounts().findIndex((count) => count === 1);
    let front = await connect(fan.access_token);
    // nginx takes turns between the instances; a socket that reached the creator's one tries again.
    for (
      let attempt = 0;
      instances.length > 1 && socketCounts()[creatorOn] === 2 && attempt < 4;
      attempt += 1
    ) {
      front.disconnect();
      await expect.poll(() => socketCounts()[creatorOn]).toBe(1);
      front = await connect(fan.access_token);
    }
    if (instances.length > 1) expect(socketCounts()).toEqual([1, 1]);

    expect(await ack(backstage, 'joinChat', { eventId: event.id })).toMatchObject({ messages: [] });
    expect(await ack(front, 'joinChat', { eventId: event.id })).toMatchObject({ messages: [] });
    const heard = waitFor(backstage, 'chatMessage');
    const sent = await ack(front, 'chatMessage', { eventId: event.id, content: 'Front row, ready!' });
    expect(sent).toMatchObject({ message: { content: 'Front row, ready!' } });
    expect(await heard).toMatchObject({
      eventId: event.id,
      userId: fan.user.id,
      content: 'Front row, ready!',
    } satisfies Partial<ChatMessage>);
  });
});
