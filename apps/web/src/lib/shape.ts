/**
 * Checks of JSON answers as light as a few functions, for what the first screens (`/`, `/events`) and the
 * session read: zod, about 25 KB of gzipped JavaScript, comes with the forms and screens that use it.
 * A check passes what the matching zod schema of packages/shared passes and returns what it would: the
 * declared fields only (an object drops the others, as `z.object` does), integers where it asks for
 * integers; anything else throws a ShapeError.
 */
export type Check<T> = (value: unknown, at: string) => T;
export type Checked<C> = C extends Check<infer T> ? T : never;

/** An answer that does not have the shape its check describes. */
export class ShapeError extends TypeError {
  constructor(at: string, expected: string) {
    super(`Unexpected answer${at ? ` at ${at}` : ''}: expected ${expected}`);
    this.name = 'ShapeError';
  }
}

const fail = (at: string, expected: string): never => {
  throw new ShapeError(at, expected);
};

export const string: Check<string> = (value, at) => (typeof value === 'string' ? value : fail(at, 'text'));

/** A finite number, as `z.number()`. */
export const number: Check<number> = (value, at) =>
  typeof value === 'number' && Number.isFinite(value) ? value : fail(at, 'a number');

/** A safe integer, as `z.number().int()`. */
export const int: Check<number> = (value, at) =>
  typeof value === 'number' && Number.isSafeInteger(value) ? value : fail(at, 'a whole number');

export const boolean: Check<boolean> = (value, at) =>
  typeof value === 'boolean' ? value : fail(at, 'true or false');

export function oneOf<const T extends readonly string[]>(values: T): Check<T[number]> {
  return (value, at) =>
    values.includes(value as string) ? (value as T[number]) : fail(at, values.join(' or '));
}

export function nullable<T>(check: Check<T>): Check<T | null> {
  return (value, at) => (value === null ? null : check(value, at));
}

export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (value, at) => (value === undefined ? undefined : check(value, at));
}

export function array<T>(check: Check<T>): Check<T[]> {
  return (value, at) =>
    Array.isArray(value) ? value.map((item, index) => check(item, `${at}[${index}]`)) : fail(at, 'a list');
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Text values under any keys, as `z.record(z.string(), z.string())`. */
export function record<T>(check: Check<T>): Check<Record<string, T>> {
  return (value, at) => {
    if (!isRecord(value)) return fail(at, 'an object');
    const out: Record<string, T> = {};
    for (const [key, item] of Object.entries(value)) out[key] = check(item, `${at}.${key}`);
    return out;
  };
}

type Fields = Record<string, Check<unknown>>;
type OptionalKeys<F extends Fields> = {
  [K in keyof F]: undefined extends Checked<F[K]> ? K : never;
}[keyof F];
type Shape<F extends Fields> = { [K in Exclude<keyof F, OptionalKeys<F>>]: Checked<F[K]> } & {
  [K in OptionalKeys<F>]?: Checked<F[K]>;
};

/** The declared fields, each checked; others are dropped. An absent optional field stays absent. */
export function object<F extends Fields>(fields: F): Check<Shape<F>> {
  return (value, at) => {
    if (!isRecord(value)) return fail(at, 'an object');
    const out: Record<string, unknown> = {};
    for (const [key, check] of Object.entries(fields)) {
      const checked = check(value[key], at ? `${at}.${key}` : key);
      if (checked !== undefined || key in value) out[key] = checked;
    }
    return out as Shape<F>;
  };
}

/** The check in the form the API client takes (`schema`) and a safe variant, as zod schemas offer. */
export function parser<T>(check: Check<T>) {
  return {
    parse: (data: unknown): T => check(data, ''),
    safeParse: (data: unknown): { success: true; data: T } | { success: false } => {
      try {
        return { success: true, data: check(data, '') };
      } catch (error) {
        if (error instanceof ShapeError) return { success: false };
        throw error;
      }
    },
  };
}
