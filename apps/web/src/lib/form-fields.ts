import {
  get,
  type FieldError,
  type FieldValues,
  type FormState,
  type Path,
  type RegisterOptions,
  type UseFormRegister,
  type UseFormRegisterReturn,
} from 'react-hook-form';

/** What an Input, Select or Textarea takes to be one field of a form: its registration and its error. */
export type BoundField<Name extends string = string> = UseFormRegisterReturn<Name> & {
  error: string | undefined;
};

/**
 * Binds a form's fields to their controls: `field('email')` is `register('email')` with the field's
 * error message, ready to spread on an Input (`field('price', { valueAsNumber: true })` passes the
 * options on to `register`). Call it while rendering: it reads `formState.errors` there and then,
 * and react-hook-form's formState re-renders a form only for what its render read.
 */
export function formFields<Form extends FieldValues>({
  register,
  formState,
}: {
  register: UseFormRegister<Form>;
  formState: FormState<NoInfer<Form>>;
}) {
  const { errors } = formState;
  return <Name extends Path<Form>>(name: Name, options?: RegisterOptions<Form, Name>): BoundField<Name> => ({
    ...register(name, options),
    error: (get(errors, name) as FieldError | undefined)?.message,
  });
}
