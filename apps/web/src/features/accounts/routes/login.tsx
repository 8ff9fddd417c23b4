import type { Role } from '@stagedoor/shared/accounts';
import { LoginForm } from '../components/login-form';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Keyed by role so going from one role's login to the other's starts a blank form. */
export function LoginRoute({ role }: { role: Role }) {
  useDocumentTitle(role === 'creator' ? 'Creator Login' : 'Spectator Login');
  return <LoginForm key={role} role={role} />;
}
