import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '../../config/paths';
import { useSession } from '../../lib/session';

/** Sends a signed-out visitor to the login page, remembering the whole target (path, query, hash). */
export function RequireAuth() {
  const { user, token } = useSession();
  const { pathname, search, hash } = useLocation();
  if (!user || !token) return <Navigate to={paths.login(`${pathname}${search}${hash}`)} replace />;
  return <Outlet />;
}
