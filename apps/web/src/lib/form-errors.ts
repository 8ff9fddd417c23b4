import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError, errorMessage } from './api-client';
import { notify } from './notify';

type SubmitErrorOptions<T extends FieldValues> = {
  setError: UseFormSetError<T>;
  /** The form's fields that can show a server reason. */
  fields: readonly Path<T>[];
  /** The screen's text for a failure the server did not explain. */
  fallback: string;
  /** Fields kept outside the form library (file pickers), by their API name. */
  otherFields?: Record<string, (reason: string) => void>;
};

/**
 * Reports a failed submit: each of the server's per-field reasons next to its field, and the
 * message in a toast, unless that very text already sits next to a field (the API sums up a
 * validation failure with its first field reason; saying it twice helps nobody).
 */
export function reportSubmitError<T extends FieldValues>(
  error: unknown,
  { setError, fields, fallback, otherFields = {} }: SubmitErrorOptions<T>,
): void {
  const shown = new Set<string>();
  if (error instanceof ApiError) {
    for (const name of fields) {
      const reason = error.fields[name];
      if (reason) {
        setError(name, { type: 'server', message: reason });
        shown.add(reason);
      }
    }
    for (const [name, show] of Object.entries(otherFields)) {
      const reason = error.fields[name];
      if (reason) {
        show(reason);
        shown.add(reason);
      }
    }
  }
  const message = errorMessage(error, fallback);
  if (!shown.has(message)) notify(message, 'error');
}
