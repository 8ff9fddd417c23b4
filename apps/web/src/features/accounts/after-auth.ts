import type { Role } from '@stagedoor/shared/accounts';
import { paths } from '../../config/paths';
import { safeRedirect } from '../../lib/redirect';

/**
 * Where a fresh session lands (spec §4): creators on their dashboard; spectators where the login
 * guard interrupted them (a local path only), else on their dashboard.
 */
export function destinationAfterAuth(role: Role, redirect: string | null): string {
  if (role === 'creator') return paths.creatorDashboard;
  return safeRedirect(redirect) ?? paths.userDashboard;
}
