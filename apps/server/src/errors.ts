import { ERROR_STATUS, type ErrorCode } from '@stagedoor/shared/errors';
import type { z } from 'zod';
import { invalidTextMessage, invalidTextPath } from './valid-text';

export type FieldErrors = Record<string, string>;

/** The one error type services throw; the error handler turns it into the API's error body. */
export class AppError extends Error {
  override name = 'AppError';
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fields?: FieldErrors,
  ) {
    super(message);
    this.statusCode = ERROR_STATUS[code];
  }
}

/** Whether `error` is an AppError with this code: how callers single out one expected refusal. */
export function hasCode(code: ErrorCode): (error: unknown) => boolean {
  return (error) => error instanceof AppError && error.code === code;
}

/** A 400 listing every invalid field (its first problem), summarised by the first one. */
export function validationFailed(issues: ReadonlyArray<{ field: string; message: string }>): AppError {
  const fields: FieldErrors = {};
  for (const { field, message } of issues) fields[field] ??= message;
  return new AppError('VALIDATION_FAILED', Object.values(fields)[0] ?? 'Invalid request', fields);
}

/**
 * Every reason a change cannot be made, each under its field: a 400 when any field is invalid, else a
 * 409 when some conflict with what is stored, summarised by the first; nothing when there are none.
 */
export function throwFieldProblems(invalid: FieldErrors, conflicts: FieldErrors): void {
  const problems = { ...invalid, ...conflicts };
  const first = Object.values(problems)[0];
  if (!first) return;
  throw new AppError(Object.keys(invalid).length > 0 ? 'VALIDATION_FAILED' : 'CONFLICT', first, problems);
}

/** A 400 naming the first field of `input` whose text is not valid text (valid-text.ts), or null. */
export function invalidTextFailure(input: unknown, context = 'request'): AppError | null {
  const path = invalidTextPath(input);
  if (!path) return null;
  const field = path.join('.') || context;
  return validationFailed([{ field, message: invalidTextMessage(field) }]);
}

/** For input that does not come through a route schema, such as the text fields of a multipart form. */
export function parseOrThrow<Schema extends z.ZodType>(schema: Schema, data: unknown): z.output<Schema> {
  const invalidText = invalidTextFailure(data);
  if (invalidText) throw invalidText;
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  throw validationFailed(
    result.error.issues.map((issue) => ({
      field: issue.path.join('.') || 'request',
      message: issue.message,
    })),
  );
}
