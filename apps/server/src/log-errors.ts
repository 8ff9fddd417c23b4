import { DrizzleQueryError } from 'drizzle-orm/errors';
import { stdSerializers, type SerializedError } from 'pino';

/**
 * How every logged error (`{err}`) is written. A failed query's error carries its parameters, in its
 * fields and in its message: a new account's password hash and email, a reset token's hash. The log
 * keeps the query's text, its cause (PostgreSQL's code and message) and the stack, never the values.
 */
export function serializeError(error: Error): SerializedError {
  if (!(error instanceof DrizzleQueryError)) return stdSerializers.err(error);
  const withoutValues = new Error(`Failed query: ${error.query}`, { cause: error.cause });
  withoutValues.name = error.name;
  withoutValues.stack = error.stack?.replace(error.message, withoutValues.message);
  return stdSerializers.err(withoutValues);
}
