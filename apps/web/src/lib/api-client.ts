import type { ErrorBody } from '@stagedoor/shared/errors';
import { ErrorBodyAnswer } from './answers';
import { clearStoredSession, readStoredToken } from './auth-storage';

const API_BASE = '/api';

/** An answer of the API outside 2xx; `message` is the server's text when it sent one. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields: Record<string, string>;
  readonly hasServerMessage: boolean;

  constructor(status: number, body: ErrorBody | null) {
    super(body?.message ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = body?.code ?? 'UNKNOWN';
    this.fields = body?.fields ?? {};
    this.hasServerMessage = Boolean(body?.message);
  }
}

/** The text to show for a failed call: the server's message, else the screen's own fallback. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.hasServerMessage ? error.message : fallback;
}

type UnauthorizedListener = () => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** The session subscribes here to reset itself and leave the page when the server rejects its token. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/**
 * What validates an answer: a zod schema of packages/shared, or a light check of lib/answers.ts on the
 * first screens.
 */
type Schema = { parse: (data: unknown) => unknown };

type RequestOptions<TSchema extends Schema | undefined> = {
  body?: unknown;
  /** Validates the answer; without it the answer is `unknown`. */
  schema?: TSchema;
  /**
   * Sends no token. Login and registration use it: their 401 means bad credentials, not an
   * expired session, so it must not sign anyone out.
   */
  anonymous?: boolean;
  /** Extra request headers, such as a purchase's `Idempotency-Key`. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The request goes on if the page is left meanwhile (a visit's report). */
  keepalive?: boolean;
};

type Answer<TSchema> = TSchema extends Schema ? ReturnType<TSchema['parse']> : unknown;

/** Sends the call with the stored token; an answer outside 2xx is thrown as an ApiError. */
async function send(
  method: string,
  path: string,
  {
    body,
    anonymous = false,
    headers: extraHeaders,
    signal,
    keepalive,
  }: Omit<RequestOptions<undefined>, 'schema'>,
): Promise<Response> {
  const headers = new Headers({ Accept: 'application/json', ...extraHeaders });
  const token = anonymous ? null : readStoredToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);

  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    // The browser writes the multipart boundary into Content-Type itself.
    payload = body;
  } else if (body instanceof Blob) {
    // Bytes as they are (a recording's chunk), with their own type.
    headers.set('Content-Type', body.type || 'application/octet-stream');
    payload = body;
  } else if (body !== undefined) {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }

  const response = await fetch(`${API_BASE}${path}`, { method, headers, body: payload, signal, keepalive });
  if (!response.ok) {
    if (response.status === 401 && token) {
      clearStoredSession();
      unauthorizedListeners.forEach((listener) => listener());
    }
    const parsed = ErrorBodyAnswer.safeParse(await readBody(response));
    throw new ApiError(response.status, parsed.success ? parsed.data : null);
  }
  return response;
}

async function request<TSchema extends Schema | undefined = undefined>(
  method: string,
  path: string,
  options: RequestOptions<TSchema> = {},
): Promise<Answer<TSchema>> {
  const data = await readBody(await send(method, path, options));
  return (options.schema ? options.schema.parse(data) : data) as Answer<TSchema>;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Options<TSchema extends Schema | undefined> = Omit<RequestOptions<TSchema>, 'body'>;

export const api = {
  get: <TSchema extends Schema | undefined = undefined>(path: string, options?: Options<TSchema>) =>
    request('GET', path, options),
  delete: <TSchema extends Schema | undefined = undefined>(path: string, options?: Options<TSchema>) =>
    request('DELETE', path, options),
  post: <TSchema extends Schema | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: Options<TSchema>,
  ) => request('POST', path, { ...options, body }),
  put: <TSchema extends Schema | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: Options<TSchema>,
  ) => request('PUT', path, { ...options, body }),
  patch: <TSchema extends Schema | undefined = undefined>(
    path: string,
    body?: unknown,
    options?: Options<TSchema>,
  ) => request('PATCH', path, { ...options, body }),
  /** A file behind the token (the earnings CSV): a plain link could not send the bearer credential. */
  file: (path: string, options: Omit<Options<undefined>, 'schema'> = {}) =>
    send('GET', path, options).then((response) => response.blob()),
};
