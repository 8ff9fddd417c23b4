import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import type { ErrorBody } from '@stagedoor/shared/errors';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { api } from '../test/factories';
import { listen } from '../test/live-clients';
import { createTestApp } from '../test/test-app';

const app = await createTestApp();
afterAll(() => app.close());

describe('GET /api/health', () => {
  it('answers ok once the database answers', async () => {
    const response = await api(app, { method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });
});

describe('every response', () => {
  it('carries the security headers of data: nothing may load from it or frame it', async () => {
    const response = await api(app, { method: 'GET', url: '/api/health' });
    expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['strict-transport-security']).toContain('max-age=');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['x-powered-by']).toBeUndefined();
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('echoes a generated x-request-id', async () => {
    const first = await api(app, { method: 'GET', url: '/api/health' });
    const second = await api(app, { method: 'GET', url: '/api/health' });
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });

  it('keeps a sane incoming x-request-id and replaces a malformed one', async () => {
    const kept = await api(app, {
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'edge-42.a' },
    });
    expect(kept.headers['x-request-id']).toBe('edge-42.a');
    const replaced = await api(app, {
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('errors', () => {
  it('answers an unknown /api route with a JSON 404 in the error format', async () => {
    const response = await api(app, { method: 'GET', url: '/api/no-such-thing?x=1' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/json');
    expect(response.headers['x-request-id']).toBeDefined();
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 404,
      code: 'NOT_FOUND',
      message: 'Route GET /api/no-such-thing not found',
    });
  });

  it('answers a URL that cannot be decoded with a 400 in the error format', async () => {
    const response = await api(app, { method: 'GET', url: '/api/events/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: "'/api/events/%E0%A4%A' is not a valid url component",
    });
  });

  it('answers malformed JSON with a 400 in the error format', async () => {
    const response = await api(app, {
      method: 'POST',
      url: '/api/auth/login/user',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json<ErrorBody>()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });

  it('answers an unsupported body type with a 415 in the error format', async () => {
    const response = await api(app, {
      method: 'POST',
      url: '/api/auth/login/user',
      headers: { 'content-type': 'text/csv' },
      payload: 'a,b',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json<ErrorBody>()).toMatchObject({ statusCode: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('does not serve the web app when there is no build', async () => {
    const response = await api(app, { method: 'GET', url: '/events', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.json<ErrorBody>().code).toBe('NOT_FOUND');
  });
});

describe('an internal failure', () => {
  it('answers a bare 500 that tells nothing about the internals', async () => {
    const broken = await createTestApp();
    try {
      // Cascade: events and orders refer to accounts.
      await broken.deps.db.execute(sql`drop table accounts cascade`);
      const response = await api(broken, {
        method: 'POST',
        url: '/api/auth/login/user',
        payload: { email: 'someone@example.test', password: 'some-password' },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json<ErrorBody>()).toEqual({
        statusCode: 500,
        code: 'INTERNAL',
        message: 'Internal server error',
      });
      expect(response.headers['x-request-id']).toBeDefined();
    } finally {
      await broken.close();
    }
  });
});

describe('CORS', () => {
  it('allows only PUBLIC_ORIGIN, and lets it show images', async () => {
    const corsApp = await createTestApp({ PUBLIC_ORIGIN: 'https://stagedoor.example/' });
    try {
      const preflight = await api(corsApp, {
        method: 'OPTIONS',
        url: '/api/auth/login/user',
        headers: { origin: 'https://stagedoor.example', 'access-control-request-method': 'POST' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('https://stagedoor.example');
      expect(preflight.headers['access-control-allow-headers']).toContain('Authorization');

      const other = await api(corsApp, {
        method: 'GET',
        url: '/api/health',
        headers: { origin: 'https://evil.example' },
      });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      expect(other.headers['cross-origin-resource-policy']).toBe('cross-origin');
    } finally {
      await corsApp.close();
    }
  });
});

describe('the built web app', async () => {
  const webDist = await mkdtemp(path.join(tmpdir(), 'stagedoor-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Stagedoor</title>');
  await writeFile(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log("app")');
  // What the web build writes beside each text asset (apps/web/scripts/after-build.mjs).
  await writeFile(
    path.join(webDist, 'assets', 'index-abc123.js.br'),
    brotliCompressSync('console.log("app")'),
  );
  await writeFile(path.join(webDist, 'assets', 'index-abc123.js.gz'), gzipSync('console.log("app")'));
  const webApp = await createTestApp({ WEB_DIST_DIR: webDist });
  afterAll(async () => {
    await webApp.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('serves index.html, never cached, for a client route', async () => {
    const response = await api(webApp, {
      method: 'GET',
      url: '/creators/dashboard/events/7/edit?tab=1',
      headers: { accept: 'text/html,application/xhtml+xml' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<title>Stagedoor</title>');
  });

  it('serves index.html at the root', async () => {
    const response = await api(webApp, { method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<title>Stagedoor</title>');
  });

  it('serves pages with the security headers of a page, and a CSP fit for the web app', async () => {
    const response = await api(webApp, { method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("img-src 'self' data: blob:");
    expect(csp).toContain("media-src 'self' blob: mediastream:");
    expect(csp).toContain("connect-src 'self';");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const response = await api(webApp, { method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('serves the build’s brotli or gzip copy to a client that accepts it, the plain file to others', async () => {
    const asset = (encoding?: string) =>
      api(webApp, {
        method: 'GET',
        url: '/assets/index-abc123.js',
        headers: encoding ? { 'accept-encoding': encoding } : {},
      });
    const brotli = await asset('gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log("app")');
    const gzip = await asset('gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log("app")');
    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("app")');
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('keeps unknown /api and /socket.io routes, and non-page requests, JSON 404s', async () => {
    for (const url of ['/api/nope', '/api', '/socket.io/?EIO=4']) {
      const response = await api(webApp, { method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(404);
      expect(response.json<ErrorBody>().code).toBe('NOT_FOUND');
    }
    const missingAsset = await api(webApp, {
      method: 'GET',
      url: '/assets/gone.js',
      headers: { accept: '*/*' },
    });
    expect(missingAsset.statusCode).toBe(404);
    expect(missingAsset.json<ErrorBody>().code).toBe('NOT_FOUND');
  });
});

describe('a request that never arrives whole', () => {
  it('is answered 408 and its connection closed once REQUEST_TIMEOUT_MS has passed', async () => {
    const slowApp = await createTestApp({ REQUEST_TIMEOUT_MS: '1000' });
    try {
      const { port } = new URL(await listen(slowApp));
      const connection = createConnection({ host: '127.0.0.1', port: Number(port) });
      let answer = '';
      connection.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const closed = new Promise<void>((resolve) => connection.on('close', () => resolve()));
      // Headers promising 100 bytes, then 3 of them, and nothing more: a body trickled to hold the line.
      connection.write(
        'POST /api/auth/login/user HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"e',
      );
      const started = Date.now();
      await closed;
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      await slowApp.close();
    }
  });
});

describe('a request that arrives while the server closes', () => {
  it('is answered 503 in the error body, and its connection closed', async () => {
    const closingApp = await createTestApp();
    const { port } = new URL(await listen(closingApp));
    const connection = createConnection({ host: '127.0.0.1', port: Number(port) });
    let answer = '';
    connection.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => connection.on('close', () => resolve()));
    // A request under way holds the close; the one pipelined behind it is read once the close began.
    const body = '{"email":"nobody@example.com","password":"not-the-password"}';
    const head =
      'POST /api/auth/login/user HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${body.length}\r\n\r\n`;
    connection.write(head + body.slice(0, 5));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closing = closingApp.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    connection.write(body.slice(5) + 'GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    await Promise.all([closed, closing]);

    const [first = '', second = ''] = answer.split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 401/);
    expect(second).toMatch(/^HTTP\/1\.1 503/);
    expect(second.toLowerCase()).toContain('connection: close');
    const errorBody = JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4)) as ErrorBody;
    expect(errorBody).toEqual({
      statusCode: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'The server is restarting. Please try again in a moment.',
    });
  });
});
