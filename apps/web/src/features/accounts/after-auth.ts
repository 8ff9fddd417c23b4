import type { Role } from '@stagedoor/shared/accounts';
import { paths } from '../../config/paths';
import { safeRedirect } from '../../lib/redirect';

/**
 * Where a fresh session lands: where the login guard interrupted it (a local path only: a studio link
 * opened signed out comes back to the studio), else on the role's dashboard (spec §4).
 */
export function destinationAfterAuth(role: Role, redirect: string | null): string {
  return safeRedirect(redirect) ?? (role === 'creator' ? paths.creatorDashboard : paths.userDashboard);
}
