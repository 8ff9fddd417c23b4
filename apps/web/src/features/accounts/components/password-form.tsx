import { zodResolver } from '@hookform/resolvers/zod';
import { ZChangePasswordForm } from '@stagedoor/shared/accounts';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/field';
import { NewPasswordFields } from '../../../components/ui/new-password-fields';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { notify } from '../../../lib/notify';
import { useChangePassword } from '../api/profile';

export function PasswordForm() {
  const changePassword = useChangePassword();
  const form = useForm({
    resolver: zodResolver(ZChangePasswordForm),
    defaultValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
  });
  const {
    handleSubmit,
    setError,
    reset,
    formState: { isSubmitting },
  } = form;
  const field = formFields(form);

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    try {
      await changePassword.mutateAsync({ currentPassword, newPassword });
      notify('Password updated successfully!', 'success');
      reset();
    } catch (error) {
      reportSubmitError(error, {
        setError,
        fields: ['currentPassword', 'newPassword'],
        fallback: 'Failed to update password',
      });
    }
  });

  return (
    <Card className="p-6 sm:p-8">
      <h2 className="text-xl font-semibold text-slate-900">Change Password</h2>
      <form onSubmit={onSubmit} noValidate className="mt-6 space-y-5">
        <Input
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...field('currentPassword')}
        />
        <NewPasswordFields field={field} />
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Updating...' : 'Update Password'}
        </Button>
      </form>
    </Card>
  );
}
