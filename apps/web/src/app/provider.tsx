import { TOAST_AUTO_CLOSE_MS } from '@stagedoor/shared/limits';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { PageSpinner } from '../components/ui/spinner';
import { Toasts } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { SessionProvider, useSession } from '../lib/session';

/**
 * Everything the routes rely on; it must sit inside a router (the session navigates on a 401). The page
 * hands in its query client when it started reads before React rendered (main.tsx); tests get a new one.
 */
export function AppProvider({ children, client }: { children: ReactNode; client?: QueryClient }) {
  const [queryClient] = useState(() => client ?? createQueryClient());
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <SessionGate>{children}</SessionGate>
      </SessionProvider>
      <Toasts position="top-right" className="below-nav" autoClose={TOAST_AUTO_CLOSE_MS} closeOnClick />
    </QueryClientProvider>
  );
}

/** Holds the routes until the stored session has been checked, so no guard acts on a stale token. */
function SessionGate({ children }: { children: ReactNode }) {
  const { initialized } = useSession();
  return initialized ? children : <PageSpinner label="Checking your session" />;
}
