import { Suspense } from 'react';
import { Outlet, useMatch } from 'react-router';
import { PageSpinner } from '../../components/ui/spinner';
import { routes } from '../../config/paths';
import { Footer } from './footer';
import { ScrollToTop } from './scroll-to-top';
import { TopNav } from './top-nav';

export function AppLayout() {
  const onFanStream = useMatch(routes.eventStream);
  const onCreatorStream = useMatch(routes.creatorEventStream);
  // The stream screens are full-screen experiences with their own header (spec §2).
  const showNav = !onFanStream && !onCreatorStream;

  return (
    <div className="flex min-h-screen flex-col">
      <ScrollToTop />
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-4 py-2 text-slate-900 focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      {showNav ? <TopNav /> : null}
      <main id="main" className="flex flex-1 flex-col">
        {/* Screens other than / and /events load on first visit (router.tsx). */}
        <Suspense fallback={<PageSpinner label="Loading" />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
