import { Menu, MenuButton, MenuItem, MenuItems, MenuSeparator } from '@headlessui/react';
import type { Role, SessionUser } from '@stagedoor/shared/accounts';
import { ChevronDown, LogOut } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { paths } from '../../config/paths';
import { notify } from '../../lib/notify';
import { useSession } from '../../lib/session';

// The signed-in account's menu, loaded when there is an account to show it for: Headless UI (about
// 34 KB of gzipped JavaScript with what it uses) is not part of a visitor's first load.

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

const itemClasses =
  'flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100 data-focus:text-slate-900';

/** `buttonClassName`: the look of the button, which the header also gives the menu's placeholder. */
export function AccountMenu({ user, buttonClassName }: { user: SessionUser; buttonClassName: string }) {
  const { logout } = useSession();
  const navigate = useNavigate();

  const signOut = () => {
    logout();
    notify('Logged out successfully');
    navigate(paths.home);
  };

  return (
    <Menu>
      <MenuButton className={buttonClassName}>
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
