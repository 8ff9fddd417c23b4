import type { BoundField } from '../../lib/form-fields';
import { Input } from './field';

/** A new password typed twice: the Change Password form's and the reset link's. */
export function NewPasswordFields({
  field,
}: {
  /** The form's `formFields` binder; the form has both fields. */
  field: (name: 'newPassword' | 'confirmPassword') => BoundField;
}) {
  return (
    <>
      <Input label="New password" type="password" autoComplete="new-password" {...field('newPassword')} />
      <Input
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        {...field('confirmPassword')}
      />
    </>
  );
}
