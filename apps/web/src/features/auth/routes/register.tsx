import type { Role } from '@stagedoor/shared/auth';
import { RegisterForm } from '../components/register-form';

/** Keyed by role so going from one role's registration to the other's starts a blank form. */
export function RegisterRoute({ role }: { role: Role }) {
  return <RegisterForm key={role} role={role} />;
}
