import type { Role } from '@stagedoor/shared/accounts';
import { RegisterForm } from '../components/register-form';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** Keyed by role so going from one role's registration to the other's starts a blank form. */
export function RegisterRoute({ role }: { role: Role }) {
  useDocumentTitle(role === 'creator' ? 'Create Creator Account' : 'Create User Account');
  return <RegisterForm key={role} role={role} />;
}
