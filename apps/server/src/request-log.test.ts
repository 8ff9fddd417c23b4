import { afterAll, describe, expect, it } from 'vitest';
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
    const lines = await requestLogOf({ NODE_ENV: 'production', LOG_LEVEL: 'info' });
    expect(lines.map(({ level, msg }) => ({ level, msg }))).toEqual([
      { level: INFO, msg: 'incoming request' },
      { level: INFO, msg: 'request completed' },
    ]);
  });
});
