import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import type { Role, SessionUser } from '@stagedoor/shared/auth';
import { ChevronDown, Clapperboard, LogOut } from 'lucide-react';
import { Link, NavLink, useNavigate } from 'react-router';
import { ButtonLink } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { BRAND_NAME } from '../../config/site';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/notify';
import { useSession } from '../../lib/session';

const accountLinks: Record<Role, { label: string; to: string }[]> = {
  creator: [
    { label: 'Dashboard', to: paths.creatorDashboard },
    { label: 'Create Event', to: paths.createEvent },
    { label: 'My Events', to: paths.creatorMyEvents },
    { label: 'Earnings', to: paths.creatorEarnings },
    { label: 'My Profile', to: paths.creatorProfileSettings },
  ],
  user: [
    { label: 'Dashboard', to: paths.userDashboard },
    { label: 'My Tickets', to: paths.userMyTickets },
    { label: 'Profile', to: paths.userProfile },
  ],
};

const siteLinks = [
  { label: 'Home', to: paths.home },
  { label: 'Founders', to: paths.founders },
];

export function TopNav() {
  const { user } = useSession();
  return (
    <header className="sticky top-0 z-40 bg-slate-950/95 text-white shadow-lg backdrop-blur">
      <nav
        aria-label="Main"
        className="mx-auto flex min-h-16 max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 sm:gap-x-8 sm:px-6 lg:px-8"
      >
        <Link
          to={paths.home}
          className="flex items-center gap-2 rounded-md text-lg font-extrabold tracking-tight focus-visible:outline-2 focus-visible:outline-white"
        >
          <Clapperboard aria-hidden className="size-6 text-brand-400" />
          <span className="sr-only sm:not-sr-only">{BRAND_NAME}</span>
        </Link>
        <ul className="flex items-center gap-1">
          {siteLinks.map(({ label, to }) => (
            <li key={to}>
              <NavLink
                to={to}
                end
                className={({ isActive }) =>
                  cn(
                    'rounded-md px-2 py-1.5 text-sm font-medium transition-colors sm:px-3',
                    'focus-visible:outline-2 focus-visible:outline-white',
                    isActive ? 'text-white' : 'text-slate-300 hover:text-white',
                  )
                }
              >
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="ml-auto flex items-center gap-2">
          {user ? (
            <AccountMenu user={user} />
          ) : (
            <>
              <ButtonLink to={paths.login()} variant="inverse" size="sm">
                Login
              </ButtonLink>
              <ButtonLink to={paths.register()} size="sm">
                Create account
              </ButtonLink>
            </>
          )}
        </div>
      </nav>
    </header>
  );
}

const itemClasses =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100 data-focus:text-slate-900';

function AccountMenu({ user }: { user: SessionUser }) {
  const { logout } = useSession();
  const navigate = useNavigate();

  const signOut = () => {
    logout();
    notify('Logged out successfully');
    navigate(paths.home);
  };

  return (
    <Menu>
      <MenuButton className="inline-flex items-center gap-1.5 rounded-lg bg-white/10 px-3 py-1.5 text-sm font-semibold ring-1 ring-white/20 ring-inset hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white">
        {user.firstName}
        <ChevronDown aria-hidden className="size-4" />
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className="z-50 mt-2 w-52 rounded-xl bg-white p-1.5 shadow-xl ring-1 ring-slate-200 focus:outline-none"
      >
        {accountLinks[user.role].map(({ label, to }) => (
          <MenuItem key={to}>
            <Link to={to} className={itemClasses}>
              {label}
            </Link>
          </MenuItem>
        ))}
        <MenuSeparator className="my-1 h-px bg-slate-200" />
        <MenuItem>
          <button type="button" onClick={signOut} className={itemClasses}>
            <LogOut aria-hidden className="size-4" />
            Logout
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}
