import { Page } from '../../../components/layout/page';
import { Spinner } from '../../../components/ui/spinner';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useProfile } from '../api/profile';
import { AccountForm } from '../components/account-form';
import { PasswordForm } from '../components/password-form';
import { SessionsCard } from '../components/sessions-card';

/** One profile screen for both roles; the account's role decides the endpoints and the extra fields. */
export function ProfileRoute() {
  useDocumentTitle('Profile');
  const user = useCurrentUser();
  const profile = useProfile(user);

  // Should the fresh copy fail to load (a toast says so, api/profile.ts), the session's copy still lets
  // the user edit their details.
  const account = profile.data ?? (profile.isError ? user : undefined);

  return (
    <Page title="Profile" description="Manage your account information and password." width="narrow">
      <div className="grid gap-8">
        {account ? <AccountForm key={account.id} account={account} /> : <Spinner label="Loading profile" />}
        <PasswordForm />
        <SessionsCard />
      </div>
    </Page>
  );
}
