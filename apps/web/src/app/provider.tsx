import { TOAST_AUTO_CLOSE_MS } from '@stagedoor/shared/limits';
import { QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { PageSpinner } from '../components/ui/spinner';
import { Toasts } from '../lib/notify';
import { createQueryClient } from '../lib/query-client';
import { SessionProvider, useSession } from '../lib/session';
import { startOpeningReads } from './opening-page';

/** Everything the routes rely on; it must sit inside a router (the session navigates on a 401). */
export function AppProvider({ children }: { children: ReactNode }) {
  const [queryClient] = useState(() => {
    const client = createQueryClient();
    startOpeningReads(client);
    return client;
  });
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
