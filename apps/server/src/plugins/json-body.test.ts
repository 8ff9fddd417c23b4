import type { ErrorBody } from '@stagedoor/shared/errors';
import { afterAll, describe, expect, it } from 'vitest';
import { api, authHeader, createCreator, eventInput } from '../../test/factories';
import { healthDuringFlood, percentile } from '../../test/flood';
import { listen } from '../../test/live-clients';
import { createTestApp } from '../../test/test-app';
import {
  ANONYMOUS_BODY_LIMIT,
  JSON_BODY_LIMIT,
  JSON_MAX_DEPTH,
  nestsDeeperThan,
  TOO_DEEP_MESSAGE,
} from './json-body';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('nestsDeeperThan', () => {
  it('counts objects and arrays inside each other, not brackets inside strings', () => {
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 4)).toBe(false);
    expect(nestsDeeperThan('{"a":[{"b":[]}]}', 3)).toBe(true);
    expect(nestsDeeperThan('{"a":"[[[[[[{{{{"}', 1)).toBe(false);
    expect(nestsDeeperThan('{"a":"\\"[[[[","b":{}}', 1)).toBe(true);
    expect(nestsDeeperThan('{"a":"\\\\","b":"[[[["}', 1)).toBe(false);
    expect(nestsDeeperThan('[],[],[],[]', 1)).toBe(false);
    expect(nestsDeeperThan(nested(JSON_MAX_DEPTH), JSON_MAX_DEPTH)).toBe(false);
    expect(nestsDeeperThan(nested(JSON_MAX_DEPTH + 1), JSON_MAX_DEPTH)).toBe(true);
  });
});

describe('JSON bodies', async () => {
  const app = await createTestApp();
  const baseUrl = await listen(app);
  afterAll(() => app.close());

  const post = (url: string, payload: string, token?: string) =>
    api(app, {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', ...(token ? authHeader(token) : {}) },
      payload,
    });

  it('refuses a body nested too deep before parsing it, with the body named', async () => {
    const creator = await createCreator(app);
    const deep = JSON.stringify({ ...eventInput(), name: JSON.parse(nested(JSON_MAX_DEPTH)) as unknown });
    const refused = await post('/api/events', deep, creator.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json<ErrorBody>()).toMatchObject({
      code: 'VALIDATION_FAILED',
      message: TOO_DEEP_MESSAGE,
      fields: { body: TOO_DEEP_MESSAGE },
    });
    const anonymous = await post('/api/auth/logout', nested(1000));
    expect(anonymous.statusCode).toBe(400);
    expect(anonymous.json<ErrorBody>().message).toBe(TOO_DEEP_MESSAGE);
  });

  it('takes at most ANONYMOUS_BODY_LIMIT on routes anyone may call, JSON_BODY_LIMIT on the others', async () => {
    const padded = (bytes: number) => JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(bytes) });
    for (const url of ['/api/auth/login/user', '/api/auth/register/creator', '/api/auth/logout']) {
      const tooLarge = await post(url, padded(ANONYMOUS_BODY_LIMIT));
      expect(tooLarge.statusCode, url).toBe(413);
      expect(tooLarge.json<ErrorBody>().code).toBe('PAYLOAD_TOO_LARGE');
    }
    expect((await post('/api/auth/login/user', padded(ANONYMOUS_BODY_LIMIT - 100))).statusCode).not.toBe(413);

    const creator = await createCreator(app);
    // An event's longest description, every character escaped, fits; a body past the limit does not.
    const longest = JSON.stringify(eventInput({ description: 'é'.repeat(5000) })).replaceAll('é', '\\u00e9');
    expect(longest.length).toBeLessThan(JSON_BODY_LIMIT);
    expect((await post('/api/events', longest, creator.token)).statusCode).toBe(201);
    const tooLarge = await post('/api/events', ' '.repeat(JSON_BODY_LIMIT) + '{}', creator.token);
    expect(tooLarge.statusCode).toBe(413);
  });

  it('keeps health answered while four clients send a megabyte nested 500,000 deep', async () => {
    const { statuses, healthMs } = await healthDuringFlood(baseUrl, {
      method: 'POST',
      path: '/api/auth/logout',
      headers: { 'content-type': 'application/json' },
      body: nested(500_000),
    });
    // Before the limits, health took 2.4 s at the median and 5.8 s at worst under this flood.
    expect(percentile(healthMs, 0.5)).toBeLessThan(500);
    // Refused unread: the server may close the connection before the client has sent it all ('error').
    expect(Object.keys(statuses).filter((status) => status !== '413' && status !== 'error')).toEqual([]);
    expect(statuses['413']).toBeGreaterThan(20);
  });
});
