import { useEffect, useId, useMemo, type ComponentProps, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

type FieldProps = {
  label: string;
  /** Guidance under the field; the error takes its place while there is one. */
  hint?: ReactNode;
  error?: string;
  /** Marks the label with an asterisk (drawn by CSS, so the label's text stays the field's name). */
  required?: boolean;
};

const controlClasses = cn(
  'block w-full rounded-lg border-0 bg-white px-3 py-2.5 text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300',
  'placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-brand-600 focus:outline-none',
  'aria-invalid:ring-red-500',
);
/** Not on a select: every select matches :read-only, and would look locked while it can be changed. */
const readOnlyClasses = 'read-only:bg-slate-100 read-only:text-slate-600';

/**
 * Wires the label, hint and error to the control so assistive tech reads them together. Ids come
 * from the field's name when it has one (`nickname`, `nickname-error`), so links and browser
 * journeys can address them; a page never shows two fields of one name.
 */
function useField(
  id: string | undefined,
  name: string | undefined,
  { hint, error }: Pick<FieldProps, 'hint' | 'error'>,
) {
  const generated = useId();
  const controlId = id ?? name ?? generated;
  const noteId = error ? `${controlId}-error` : `${controlId}-hint`;
  return {
    controlId,
    noteId,
    controlAria: {
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error || hint ? noteId : undefined,
      'aria-errormessage': error ? noteId : undefined,
    },
  };
}

function FieldFrame({
  label,
  hint,
  error,
  required,
  controlId,
  noteId,
  children,
}: FieldProps & { controlId: string; noteId: string; children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <label
        htmlFor={controlId}
        className={cn(
          'block text-sm font-medium text-slate-800',
          required && "after:ml-0.5 after:text-red-600 after:content-['*']",
        )}
      >
        {label}
      </label>
      {children}
      {error ? (
        <p id={noteId} className="text-sm text-red-600">
          {error}
        </p>
      ) : hint ? (
        <p id={noteId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Input({
  label,
  hint,
  error,
  id,
  className,
  required,
  ...props
}: FieldProps & ComponentProps<'input'>) {
  const { controlId, noteId, controlAria } = useField(id, props.name, { hint, error });
  return (
    <FieldFrame
      label={label}
      hint={hint}
      error={error}
      required={required}
      controlId={controlId}
      noteId={noteId}
    >
      <input
        id={controlId}
        className={cn(controlClasses, readOnlyClasses, className)}
        aria-required={required || undefined}
        {...controlAria}
        {...props}
      />
    </FieldFrame>
  );
}

export function Textarea({
  label,
  hint,
  error,
  id,
  className,
  ...props
}: FieldProps & ComponentProps<'textarea'>) {
  const { controlId, noteId, controlAria } = useField(id, props.name, { hint, error });
  return (
    <FieldFrame label={label} hint={hint} error={error} controlId={controlId} noteId={noteId}>
      <textarea
        id={controlId}
        className={cn(controlClasses, readOnlyClasses, className)}
        {...controlAria}
        {...props}
      />
    </FieldFrame>
  );
}

export function Select({
  label,
  hint,
  error,
  id,
  className,
  ...props
}: FieldProps & ComponentProps<'select'>) {
  const { controlId, noteId, controlAria } = useField(id, props.name, { hint, error });
  return (
    <FieldFrame label={label} hint={hint} error={error} controlId={controlId} noteId={noteId}>
      <select id={controlId} className={cn(controlClasses, 'pr-8', className)} {...controlAria} {...props} />
    </FieldFrame>
  );
}

type ImageInputProps = FieldProps & {
  /** The API's name for the file field; also the control's id. */
  name: string;
  /** The image the account already has, shown until a new one is picked. */
  currentUrl?: string | null;
  file: File | null;
  /** Answers whether the file was taken; a refused one is cleared from the control. */
  onPick: (file: File | null) => boolean;
  accept: string;
  shape: keyof typeof previewShapes;
};

const previewShapes = {
  banner: 'aspect-[4/1] w-full rounded-lg',
  cover: 'aspect-video w-full max-w-md rounded-lg',
  avatar: 'size-24 rounded-full',
};

export function ImageInput({
  label,
  hint,
  error,
  name,
  currentUrl,
  file,
  onPick,
  accept,
  shape,
  required,
}: ImageInputProps) {
  const { controlId, noteId, controlAria } = useField(undefined, name, { hint, error });
  const previewUrl = useObjectUrl(file) ?? currentUrl;
  return (
    <FieldFrame
      label={label}
      hint={hint}
      error={error}
      required={required}
      controlId={controlId}
      noteId={noteId}
    >
      {previewUrl ? (
        <img
          src={previewUrl}
          alt={`${label} preview`}
          className={cn('object-cover ring-1 ring-slate-200', previewShapes[shape])}
        />
      ) : null}
      <input
        id={controlId}
        name={name}
        type="file"
        accept={accept}
        aria-required={required || undefined}
        className={cn(
          'block w-full text-sm text-slate-600 file:mr-4 file:rounded-lg file:border-0 file:bg-brand-50',
          'file:px-4 file:py-2 file:text-sm file:font-semibold file:text-brand-700 hover:file:bg-brand-100',
        )}
        {...controlAria}
        onChange={(event) => {
          if (!onPick(event.target.files?.[0] ?? null)) event.target.value = '';
        }}
      />
    </FieldFrame>
  );
}

function useObjectUrl(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return url;
}
