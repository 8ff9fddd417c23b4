import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import { Input } from './field';

type NewPassword = { newPassword: string; confirmPassword: string };

/** A new password typed twice: the Change Password form's and the reset link's. */
export function NewPasswordFields<Form extends NewPassword>({
  register,
  errors,
}: {
  register: UseFormRegister<Form>;
  errors: FieldErrors<Form>;
}) {
  const fields = register as unknown as UseFormRegister<NewPassword>;
  const problems = errors as FieldErrors<NewPassword>;
  return (
    <>
      <Input
        label="New password"
        type="password"
        autoComplete="new-password"
        error={problems.newPassword?.message}
        {...fields('newPassword')}
      />
      <Input
        label="Confirm new password"
        type="password"
        autoComplete="new-password"
        error={problems.confirmPassword?.message}
        {...fields('confirmPassword')}
      />
    </>
  );
}
