import { zodResolver } from '@hookform/resolvers/zod';
import { ZRegisterRequest, type Role } from '@stagedoor/shared/accounts';
import { PASSWORD_MIN_LENGTH } from '@stagedoor/shared/limits';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { matchPath, useNavigate, useSearchParams } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/field';
import { TextLink } from '../../../components/ui/text-link';
import { paths, routes } from '../../../config/paths';
import { browserTimeZone } from '../../../lib/dates';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { eventQuery } from '../../../lib/reads';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';
import { destinationAfterAuth } from '../after-auth';
import { AuthCard } from './auth-card';

const copy = {
  creator: {
    title: 'Create Creator Account',
    subtitle: 'Sell tickets to your live events and stream them to your fans.',
    success: 'Created and logged in successfully!',
    loginPath: paths.login,
  },
  user: {
    title: 'Create User Account',
    subtitle: 'Buy tickets and watch your favourite creators live.',
    success: 'Account created and logged in successfully!',
    loginPath: paths.userLogin,
  },
} satisfies Record<Role, { title: string; subtitle: string; success: string; loginPath: typeof paths.login }>;

const fieldNames = ['firstName', 'lastName', 'email', 'password'] as const;

/**
 * A visitor sent here by "Purchase Ticket" reads which tickets the account is for, and that the
 * checkout comes next; anyone else the role's own line.
 */
function ForCheckout({ redirect, fallback }: { redirect: string | null; fallback: string }) {
  const eventId = matchPath(routes.checkout, redirect?.split('?')[0] ?? '')?.params.id ?? null;
  const event = useQuery({ ...eventQuery(eventId ?? ''), enabled: eventId !== null });
  if (!event.data) return fallback;
  return `Create your account to get your tickets to ${event.data.name}: the checkout comes right after.`;
}

/** The registration screen of either role; the new account is signed in straight away. */
export function RegisterForm({ role }: { role: Role }) {
  const { register: createAccount, loading } = useSession();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const redirect = searchParams.get('redirect');
  const form = useForm({
    resolver: zodResolver(ZRegisterRequest),
    defaultValues: { firstName: '', lastName: '', email: '', password: '' },
  });
  const { handleSubmit, setError } = form;
  const field = formFields(form);

  const onSubmit = handleSubmit(async (data) => {
    try {
      // The account shows every date in the zone of the browser it was made in (editable in Profile).
      await createAccount(role, { ...data, timeZone: browserTimeZone() });
      notify(copy[role].success, 'success');
      navigate(destinationAfterAuth(role, redirect), { replace: true });
    } catch (error) {
      reportSubmitError(error, { setError, fields: fieldNames, fallback: 'Registration error' });
    }
  });

  return (
    <AuthCard
      title={copy[role].title}
      subtitle={<ForCheckout redirect={redirect} fallback={copy[role].subtitle} />}
      footer={
        <p>
          Already have an account? <TextLink to={copy[role].loginPath(redirect)}>Sign in instead</TextLink>
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <Input label="First name" autoComplete="given-name" {...field('firstName')} />
          <Input label="Last name" autoComplete="family-name" {...field('lastName')} />
        </div>
        <Input label="Email" type="email" autoComplete="email" {...field('email')} />
        <Input
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          {...field('password')}
        />
        <Button type="submit" disabled={loading} className="w-full">
          {loading ? 'Creating...' : 'Create'}
        </Button>
      </form>
    </AuthCard>
  );
}
