import { randomUUID } from 'node:crypto';
import type { AuthResponse, Role, SessionUser } from '@stagedoor/shared/auth';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App } from '../src/app';

let requestCount = 0;

/**
 * Every request comes from its own address, so the per-IP limits (the same as in production) only
 * ever trip in the test that sets out to trip them.
 */
export function nextRemoteAddress(): string {
  requestCount += 1;
  return `10.${(requestCount >> 16) & 255}.${(requestCount >> 8) & 255}.${requestCount & 255}`;
}

export function api(app: App, options: InjectOptions): Promise<LightMyRequestResponse> {
  return app.inject({ remoteAddress: nextRemoteAddress(), ...options });
}

export function uniqueEmail(label = 'account'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}

export function authHeader(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export interface TestAccount {
  email: string;
  password: string;
  token: string;
  user: SessionUser;
}

export interface AccountOverrides {
  firstName?: string;
  lastName?: string;
  email?: string;
  password?: string;
}

/** Registers through the API, as a visitor would. */
export async function createAccount(
  app: App,
  role: Role,
  overrides: AccountOverrides = {},
): Promise<TestAccount> {
  const input = {
    firstName: 'Test',
    lastName: role === 'creator' ? 'Creator' : 'Fan',
    email: uniqueEmail(role),
    password: 'correct-horse-battery',
    ...overrides,
  };
  const response = await api(app, { method: 'POST', url: `/api/auth/register/${role}`, payload: input });
  expect(response.statusCode, response.body).toBe(201);
  const { access_token, user } = response.json<AuthResponse>();
  return { email: user.email, password: input.password, token: access_token, user };
}

export const createCreator = (app: App, overrides?: AccountOverrides) =>
  createAccount(app, 'creator', overrides);
export const createUser = (app: App, overrides?: AccountOverrides) => createAccount(app, 'user', overrides);

export interface FormFile {
  data: Buffer;
  filename: string;
  type?: string;
}

/** POSTs a multipart/form-data body, encoded the way a browser encodes a FormData. */
export async function postForm(
  app: App,
  url: string,
  token: string,
  fields: Record<string, string>,
  files: Record<string, FormFile | FormFile[]> = {},
): Promise<LightMyRequestResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, value] of Object.entries(files)) {
    for (const file of [value].flat()) {
      form.append(
        name,
        new Blob([file.data], { type: file.type ?? 'application/octet-stream' }),
        file.filename,
      );
    }
  }
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return api(app, {
    method: 'POST',
    url,
    headers: { ...authHeader(token), 'content-type': encoded.headers.get('content-type') ?? '' },
    payload: Buffer.from(await encoded.arrayBuffer()),
  });
}
