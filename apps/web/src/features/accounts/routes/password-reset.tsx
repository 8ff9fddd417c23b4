import { zodResolver } from '@hookform/resolvers/zod';
import {
  ZAuthResponse,
  ZForgotPasswordRequest,
  ZResetPasswordForm,
  type ForgotPasswordRequest,
} from '@stagedoor/shared/accounts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/field';
import { NewPasswordFields } from '../../../components/ui/new-password-fields';
import { Notice } from '../../../components/ui/notice';
import { Spinner } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { api, errorMessage } from '../../../lib/api-client';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { destinationAfterAuth } from '../after-auth';
import { AuthCard } from '../components/auth-card';

const LINK_UNCHECKED_MESSAGE = 'This reset link could not be checked. Ask for a new one.';

const loginLinks = (
  <p>
    Back to <TextLink to={paths.userLogin()}>spectator login</TextLink> or{' '}
    <TextLink to={paths.login()}>creator login</TextLink>
  </p>
);

/** /forgot-password: the same answer whether or not the email is an account's. */
export function ForgotPasswordRoute() {
  useDocumentTitle('Forgot password');
  const [sent, setSent] = useState<string | null>(null);
  const form = useForm<ForgotPasswordRequest>({
    resolver: zodResolver(ZForgotPasswordRequest),
    defaultValues: { email: '' },
  });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;
  const field = formFields(form);

  const onSubmit = handleSubmit(async (input) => {
    try {
      const { message } = await api.post('/auth/forgot-password', input, {
        schema: z.object({ message: z.string() }),
        anonymous: true,
      });
      setSent(message);
    } catch (error) {
      reportSubmitError(error, { setError, fields: ['email'], fallback: 'Could not send the link' });
    }
  });

  return (
    <AuthCard
      title="Forgot password?"
      subtitle="We will email you a link to choose a new one."
      footer={loginLinks}
    >
      {sent ? (
        <Notice>{sent}</Notice>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          <Input label="Email" type="email" autoComplete="email" {...field('email')} />
          <Button type="submit" disabled={isSubmitting} className="w-full">
            {isSubmitting ? 'Sending...' : 'Send link'}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

/** /reset-password?token=…: the mailed link; a new password signs the account in. */
export function ResetPasswordRoute() {
  useDocumentTitle('Choose a new password');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const navigate = useNavigate();
  const { setToken, updateUser } = useSession();
  // A used or expired link is told before its owner types a new password twice.
  const link = useQuery({
    queryKey: ['reset-link', token],
    // 204 when usable: a query must answer something, so it answers that it is.
    queryFn: async () => {
      await api.post('/auth/reset-password/check', { token }, { anonymous: true });
      return 'usable' as const;
    },
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  const form = useForm({
    resolver: zodResolver(ZResetPasswordForm),
    defaultValues: { newPassword: '', confirmPassword: '' },
  });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;
  const field = formFields(form);

  const onSubmit = handleSubmit(async ({ newPassword: password }) => {
    try {
      const { access_token, user } = await api.post(
        '/auth/reset-password',
        { token, password },
        { schema: ZAuthResponse, anonymous: true },
      );
      setToken(access_token);
      updateUser(user);
      notify('Password updated successfully!', 'success');
      navigate(destinationAfterAuth(user.role, null), { replace: true });
    } catch (error) {
      reportSubmitError(error, {
        setError,
        fields: [],
        fallback: 'Failed to update password',
        // The API names the field `password`.
        otherFields: { password: (reason) => setError('newPassword', { type: 'server', message: reason }) },
      });
    }
  });

  const footer = (
    <p>
      Link expired? <TextLink to={paths.forgotPassword}>Ask for a new one</TextLink>
    </p>
  );
  return (
    <AuthCard
      title="Choose a new password"
      subtitle="It replaces your old one and signs out other sessions."
      footer={footer}
    >
      {!token ? (
        <Notice>This link has no reset token. Ask for a new link below.</Notice>
      ) : link.isPending ? (
        <Spinner label="Checking your link" className="py-6" />
      ) : link.isError ? (
        <Notice>{errorMessage(link.error, LINK_UNCHECKED_MESSAGE)}</Notice>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          <NewPasswordFields field={field} />
          <Button type="submit" disabled={isSubmitting} className="w-full">
            {isSubmitting ? 'Saving...' : 'Save password'}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
