import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import type { AuthResponse } from '@stagedoor/shared/accounts';
import { SOCKET_PATH } from '@stagedoor/shared/live';
import { io } from 'socket.io-client';
import { describe, expect, inject, it, onTestFinished } from 'vitest';
import { uniqueEmail } from '../test/factories';
import { startRedisServer } from '../test/redis-server';
import { startServerProcess } from '../test/server-process';
import { freshDatabaseUrl } from '../test/test-app';

const PASSWORD = 'correct-horse-battery';

/** A deployment on the project's driver: PGlite in its DATA_DIR (as `npm start`), or a new PostgreSQL database. */
async function deploymentEnv(): Promise<Record<string, string>> {
  return {
    DATA_DIR: await mkdtemp(path.join(inject('tempRoot'), 'shutdown-')),
    JWT_SECRET: 'a-secret-shared-by-both-starts-of-the-server',
    ...(inject('databaseDriver') === 'postgres' && { DATABASE_URL: await freshDatabaseUrl() }),
  };
}

interface Answer {
  status: number;
  body: string;
}

/**
 * A registration sent in two parts, over a kept-alive connection as a browser or a proxy keeps one:
 * the server has the request (and its first bytes) before `finish` sends the rest.
 */
function startRegistration(origin: string, email: string) {
  const body = JSON.stringify({ firstName: 'Late', lastName: 'Fan', email, password: PASSWORD });
  const agent = new http.Agent({ keepAlive: true });
  const request = http.request(`${origin}/api/auth/register/user`, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on('error', reject);
  });
  request.flushHeaders();
  request.write(body.slice(0, 20));
  return {
    answer,
    finish: () => request.end(body.slice(20)),
    close: () => agent.destroy(),
  };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a new TCP connection to the server's port is accepted. */
function acceptsConnections(origin: string): Promise<boolean> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const probe = connect(Number(port), hostname, () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}

describe('SIGTERM', () => {
  it(
    'lets a request under way finish with its answer, tells sockets to reconnect, refuses new connections, and exits cleanly',
    { timeout: 120_000 },
    async () => {
      const env = await deploymentEnv();
      // Far longer than the test: the process must exit because the work is done, not because time ran out.
      const server = await startServerProcess({ ...env, SHUTDOWN_TIMEOUT_MS: '60000' });
      onTestFinished(() => server.kill());

      const creator = await fetch(`${server.origin}/api/auth/register/creator`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ firstName: 'On', lastName: 'Air', email: uniqueEmail(), password: PASSWORD }),
      });
      expect(creator.status).toBe(201);
      const { access_token: token } = (await creator.json()) as AuthResponse;
      // As apps/web's socket connects: socket.io reconnects by itself after any drop but one the server asked for.
      const socket = io(server.origin, {
        path: SOCKET_PATH,
        transports: ['websocket'],
        auth: { token: `Bearer ${token}` },
        reconnectionDelay: 60_000,
        forceNew: true,
      });
      onTestFinished(() => void socket.disconnect());
      await new Promise<void>((resolve, reject) =>
        socket.once('connect', () => resolve()).once('connect_error', reject),
      );
      const dropped = new Promise<string>((resolve) => socket.once('disconnect', resolve));

      const email = uniqueEmail('late');
      const registration = startRegistration(server.origin, email);
      onTestFinished(registration.close);
      await pause(300);
      const sentAt = Date.now();
      server.signal('SIGTERM');

      expect(await dropped).toBe('transport close');
      expect(socket.active, 'the client retries, to reach another instance').toBe(true);
      expect(await acceptsConnections(server.origin)).toBe(false);
      expect(server.isRunning(), server.output()).toBe(true);

      registration.finish();
      const answer = await registration.answer;
      expect(answer.status, answer.body).toBe(201);
      expect((JSON.parse(answer.body) as AuthResponse).user.email).toBe(email);
      expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });
      expect(Date.now() - sentAt).toBeLessThan(30_000);
      expect(server.output()).not.toContain('shutdown failed');

      // Started again on its data, the server has the account the last request made.
      const again = await startServerProcess(env);
      onTestFinished(() => again.stop());
      const login = await fetch(`${again.origin}/api/auth/login/user`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(login.status).toBe(200);
    },
  );

  it('exits cleanly while Redis is out of reach', { timeout: 60_000 }, async () => {
    const redis = await startRedisServer();
    onTestFinished(() => redis.stop());
    const server = await startServerProcess({ ...(await deploymentEnv()), REDIS_URL: redis.url });
    onTestFinished(() => server.kill());
    await redis.stop();
    await pause(300);

    const sentAt = Date.now();
    server.signal('SIGTERM');
    expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });
    expect(Date.now() - sentAt).toBeLessThan(10_000);
  });

  it(
    'cuts off a request still under way after SHUTDOWN_TIMEOUT_MS, and exits all the same',
    { timeout: 60_000 },
    async () => {
      const server = await startServerProcess({ ...(await deploymentEnv()), SHUTDOWN_TIMEOUT_MS: '500' });
      onTestFinished(() => server.kill());
      // Its body never comes.
      const stuck = startRegistration(server.origin, uniqueEmail('stuck'));
      onTestFinished(stuck.close);
      await pause(300);
      const sentAt = Date.now();
      server.signal('SIGTERM');

      await expect(stuck.answer).rejects.toThrow(/socket hang up|ECONNRESET/);
      expect(await server.exited, server.output()).toEqual({ code: 0, signal: null });
      expect(Date.now() - sentAt).toBeGreaterThanOrEqual(500);
      expect(Date.now() - sentAt).toBeLessThan(10_000);
      expect(server.output()).toContain('cutting off the requests still under way');
    },
  );
});
