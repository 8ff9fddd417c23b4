import { zodResolver } from '@hookform/resolvers/zod';
import { ZLoginRequest, type Role } from '@stagedoor/shared/accounts';
import { useForm } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/field';
import { Notice } from '../../../components/ui/notice';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { destinationAfterAuth } from '../after-auth';
import { AuthCard } from './auth-card';

const copy = {
  creator: { title: 'Creators', subtitle: 'Login to your creator account' },
  user: { title: 'Spectators', subtitle: 'Login to your spectator account' },
} satisfies Record<Role, { title: string; subtitle: string }>;

/** The login screen of either role; they differ only in wording, endpoint and where they lead. */
export function LoginForm({ role }: { role: Role }) {
  const { login, loading } = useSession();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirect = searchParams.get('redirect');
  const form = useForm({ resolver: zodResolver(ZLoginRequest), defaultValues: { email: '', password: '' } });
  const { handleSubmit, setError } = form;
  const field = formFields(form);

  const onSubmit = handleSubmit(async (credentials) => {
    try {
      await login(role, credentials);
      notify('Welcome!', 'success');
      navigate(destinationAfterAuth(role, redirect), { replace: true });
    } catch (error) {
      reportSubmitError(error, { setError, fields: ['email', 'password'], fallback: 'Login error' });
    }
  });

  return (
    <AuthCard
      title={copy[role].title}
      subtitle={copy[role].subtitle}
      footer={
        role === 'creator' ? (
          <p>
            New here? <TextLink to={paths.register(redirect)}>Create a creator account</TextLink>
          </p>
        ) : (
          <>
            <p>
              New here? <TextLink to={paths.userRegister(redirect)}>Create a spectator account</TextLink>
            </p>
            <p>
              Are you a creator? <TextLink to={paths.login(redirect)}>Creator login</TextLink>
            </p>
          </>
        )
      }
    >
      {role === 'creator' ? (
        <div className="mb-6">
          <Notice>
            Spectators who bought tickets must log in at{' '}
            <TextLink to={paths.userLogin(redirect)}>/user/login</TextLink>.
          </Notice>
        </div>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <Input label="Email" type="email" autoComplete="email" {...field('email')} />
        <Input label="Password" type="password" autoComplete="current-password" {...field('password')} />
        <p className="text-right text-sm">
          <TextLink to={paths.forgotPassword}>Forgot password?</TextLink>
        </p>
        <Button type="submit" disabled={loading} className="w-full">
          {loading ? 'Signing in...' : 'Sign in'}
        </Button>
      </form>
    </AuthCard>
  );
}
