import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { App } from './app';
import { createTestApp } from '../test/test-app';

interface LogLine {
  level: number;
  msg: string;
}

const DEBUG = 20;
const INFO = 30;
const apps: App[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

/** The request lines one GET writes on a server built with `env`. */
async function requestLogOf(env: Record<string, string>): Promise<LogLine[]> {
  const lines: LogLine[] = [];
  const app = await createTestApp(env, {
    logStream: { write: (line) => lines.push(JSON.parse(line) as LogLine) },
  });
  apps.push(app);
  const response = await app.inject({ method: 'GET', url: '/api/health' });
  expect(response.statusCode).toBe(200);
  return lines.filter((line) => line.msg === 'incoming request' || line.msg === 'request completed');
}

describe('the request log', () => {
  it('is quiet at the default level in development, so the start banner stays in view', async () => {
    expect(await requestLogOf({ NODE_ENV: 'development', LOG_LEVEL: 'info' })).toEqual([]);
  });

  it('logs each request at debug in development', async () => {
    const lines = await requestLogOf({ NODE_ENV: 'development', LOG_LEVEL: 'debug' });
    expect(lines.map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: DEBUG, msg: 'incoming request' },
      { level: DEBUG, msg: 'request completed' },
    ]);
  });

  it('logs each request at info in production, as an access log', async () => {
    const lines = await requestLogOf({
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      PUBLIC_URL: 'https://stagedoor.example',
    });
    expect(lines.map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: INFO, msg: 'incoming request' },
      { level: INFO, msg: 'request completed' },
    ]);
  });
});

describe('what the log never holds', () => {
  const production = { NODE_ENV: 'production', LOG_LEVEL: 'info', PUBLIC_URL: 'https://stagedoor.example' };

  /** The lines the app writes while `send` runs (which sees them as they come). */
  async function logOf(send: (app: App, lines: string[]) => Promise<unknown>): Promise<string[]> {
    const lines: string[] = [];
    const app = await createTestApp(production, { logStream: { write: (line) => lines.push(line) } });
    apps.push(app);
    await send(app, lines);
    return lines;
  }

  it('keeps the secrets of a link (reset token, reminders-off signature, watch token) out of every line', async () => {
    const secrets = ['reset-SECRET-1', 'signature-SECRET-2', 'watch-SECRET-3'];
    const lines = await logOf(async (app) => {
      for (const url of [
        `/reset-password?token=${secrets[0]}`,
        `/api/mail/reminders-off?account=1&signature=${secrets[1]}`,
        `/api/mail/reminders-off?signature=${secrets[1]}&account=1`,
        `/watch/${secrets[2]}?from=mail`,
      ])
        await app.inject({ method: 'GET', url });
    });
    const urls = lines
      .map((line) => (JSON.parse(line) as { req?: { url: string } }).req?.url)
      .filter(Boolean);
    expect(urls).toEqual([
      '/reset-password?token=[redacted]',
      '/api/mail/reminders-off?account=1&signature=[redacted]',
      '/api/mail/reminders-off?signature=[redacted]&account=1',
      '/watch/[redacted]?from=mail',
    ]);
    for (const secret of secrets) expect(lines.join('\n')).not.toContain(secret);
  });

  it('logs a client that closed its connection mid-request at info, not as an error', async () => {
    const lines = await logOf(async (app, written) => {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      const socket = connect(port, '127.0.0.1');
      await once(socket, 'connect');
      socket.write(
        'POST /api/auth/login/user HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
      );
      // The server has begun reading the body when its request is logged as incoming.
      await vi.waitFor(() => expect(written.join('')).toContain('/api/auth/login/user'), {
        timeout: 10_000,
      });
      socket.destroy();
      await vi.waitFor(() => expect(written.join('')).toContain('client closed the connection'), {
        timeout: 10_000,
      });
    });
    const levels = lines.map((line) => JSON.parse(line) as LogLine);
    expect(levels.filter((line) => line.level > INFO)).toEqual([]);
    expect(levels.find((line) => line.msg === 'client closed the connection mid-request')?.level).toBe(INFO);
  });
});
