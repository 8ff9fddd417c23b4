import {
  ZOnboardingLink,
  ZPayoutAccount,
  ZPayoutList,
  type OnboardingRequest,
} from '@stagedoor/shared/money';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, errorMessage } from '../../../lib/api-client';
import { saveFile } from '../../../lib/download';
import { notify } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { earningsQuery } from '../../../lib/reads';

/** GET /earnings: the balance and what each event earned (My Events reads it too, for a penalty). */
export function useEarnings() {
  return useQuery(earningsQuery());
}

/** GET /payouts: newest first. */
export function usePayouts() {
  return useQuery({
    queryKey: queryKeys.earnings.payouts,
    queryFn: ({ signal }) => api.get('/payouts', { schema: ZPayoutList, signal }),
  });
}

/** GET /payments/account: where the creator's payouts go. */
export function usePayoutAccount() {
  return useQuery({
    queryKey: queryKeys.payments.account,
    queryFn: ({ signal }) => api.get('/payments/account', { schema: ZPayoutAccount, signal }),
  });
}

/**
 * POST /payments/account/onboarding (in the country chosen, for a new account), then on to Stripe's
 * page, which sends the creator back after.
 */
export function useStripeOnboarding() {
  return useMutation({
    mutationFn: (request: OnboardingRequest) =>
      api.post('/payments/account/onboarding', request, { schema: ZOnboardingLink }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => notify(errorMessage(error, 'Failed to open Stripe onboarding'), 'error'),
  });
}

/** POST /payments/account/dashboard, then on to the creator's Stripe Express dashboard. */
export function useStripeDashboard() {
  return useMutation({
    mutationFn: () => api.post('/payments/account/dashboard', undefined, { schema: ZOnboardingLink }),
    onSuccess: ({ url }) => window.location.assign(url),
    onError: (error) => notify(errorMessage(error, 'Failed to open your Stripe dashboard'), 'error'),
  });
}

/** GET /earnings.csv, fetched with the token and handed to the browser as a download. */
export function useDownloadEarnings() {
  return useMutation({
    mutationFn: () => api.file('/earnings.csv', { headers: { Accept: 'text/csv' } }),
    onSuccess: (file) => saveFile(file, 'earnings.csv'),
    onError: (error) => notify(errorMessage(error, 'Failed to download earnings'), 'error'),
  });
}
