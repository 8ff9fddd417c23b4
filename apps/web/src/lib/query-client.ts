import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError, errorMessage } from './api-client';
import { notify } from './notify';

/** What a read may declare in its `meta` for the query cache to act on. */
type ReadMeta = {
  /** The error toast a failed read shows, once per failure; a read without one shows its failure itself. */
  errorMessage?: string;
  /** Toast the server's message instead, when it sent one (`errorMessage` stays the fallback). */
  preferServerMessage?: boolean;
};

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ReadMeta;
  }
}

/** The one place a failed read turns into a toast: the message its query declared in `meta`. */
function toastFailedRead(error: Error, { meta }: { meta?: ReadMeta }): void {
  if (!meta?.errorMessage) return;
  notify(meta.preferServerMessage ? errorMessage(error, meta.errorMessage) : meta.errorMessage, 'error');
}

/** The app's query client, and the tests' (test/render-app.tsx renders the app's provider). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: toastFailedRead }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // A 4xx answer will not change on a retry; only network and server faults are worth one.
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status < 500) && failureCount < 2,
      },
    },
  });
}
