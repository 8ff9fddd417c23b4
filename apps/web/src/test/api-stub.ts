import type { SessionUser } from '@stagedoor/shared/auth';
import { vi } from 'vitest';

type Reply = { status?: number; body?: unknown };
export type ApiCall = { method: string; path: string; headers: Headers; body: unknown };
type Handler = Reply | ((call: ApiCall) => Reply | Promise<Reply>);

/**
 * Replaces `fetch` with a fake API keyed by "METHOD /path" (without the /api prefix). Anything not
 * listed answers 404 the way the real server does. Returns the calls made, for assertions.
 */
export function stubApi(handlers: Record<string, Handler>): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init.method ?? 'GET';
      const path = url.pathname.replace(/^\/api/, '');
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      const call = { method, path, headers: new Headers(init.headers), body };
      calls.push(call);

      const handler = handlers[`${method} ${path}`];
      const reply = typeof handler === 'function' ? await handler(call) : handler;
      const { status = 200, body: answer } = reply ?? {
        status: 404,
        body: { statusCode: 404, code: 'NOT_FOUND', message: 'Not found' },
      };
      return new Response(answer === undefined ? null : JSON.stringify(answer), {
        status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}

export function aUser(overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    id: 7,
    email: 'ada@example.com',
    role: 'user',
    firstName: 'Ada',
    lastName: 'Lovelace',
    nickname: 'ada',
    biography: null,
    headerImageUrl: null,
    profileImageUrl: null,
    ...overrides,
  };
}

export function aCreator(overrides: Partial<SessionUser> = {}): SessionUser {
  return aUser({
    id: 3,
    email: 'grace@example.com',
    role: 'creator',
    firstName: 'Grace',
    lastName: 'Hopper',
    nickname: 'grace',
    ...overrides,
  });
}

/** A stored session the app will find on start, and the verify-token answer that confirms it. */
export function signedInAs(user: SessionUser): Record<string, Handler> {
  localStorage.setItem('token', 'stored-token');
  localStorage.setItem('user', JSON.stringify(user));
  return { 'GET /auth/verify-token': { body: { valid: true, user } } };
}
