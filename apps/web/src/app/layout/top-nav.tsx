import { ChevronDown, Clapperboard } from 'lucide-react';
import { lazy, Suspense, useLayoutEffect, useRef } from 'react';
import { Link, NavLink } from 'react-router';
import { ButtonLink } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { BRAND_NAME } from '../../config/site';
import { cn } from '../../lib/cn';
import { useSession } from '../../lib/session';

// Loaded with the first signed-in header: a visitor's first load carries no Headless UI.
const AccountMenu = lazy(() =>
  import('./account-menu').then(({ AccountMenu }) => ({ default: AccountMenu })),
);

const accountButtonClasses =
  'inline-flex items-center gap-1.5 rounded-lg bg-white/10 px-3 py-1.5 text-sm font-semibold ring-1 ring-white/20 ring-inset hover:bg-white/20 focus-visible:outline-2 focus-visible:outline-white';

const siteLinks = [
  { label: 'Home', to: paths.home },
  { label: 'Founders', to: paths.founders },
];

/**
 * Publishes the header's height as `--nav-height` on the page, for what must sit below it (the toasts:
 * index.css): it grows on phones, where a visitor's buttons wrap to a second row.
 */
function useNavHeight() {
  const header = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const element = header.current;
    if (!element) return;
    const publish = () =>
      document.documentElement.style.setProperty(
        '--nav-height',
        `${element.getBoundingClientRect().height}px`,
      );
    publish();
    const observer = new ResizeObserver(publish);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return header;
}

export function TopNav() {
  const { user } = useSession();
  const header = useNavHeight();
  return (
    <header ref={header} className="sticky top-0 z-40 bg-slate-950/95 text-white shadow-lg backdrop-blur">
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
            <Suspense
              fallback={
                // The button's look until the menu has loaded, so the header does not shift.
                <span aria-hidden className={accountButtonClasses}>
                  {user.firstName}
                  <ChevronDown className="size-4" />
                </span>
              }
            >
              <AccountMenu user={user} buttonClassName={accountButtonClasses} />
            </Suspense>
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
