import { PAYOUT_COUNTRIES, type PayoutAccount as Account, type PayoutCountry } from '@stagedoor/shared/money';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Select } from '../../../components/ui/field';
import { BRAND_NAME } from '../../../config/site';
import { useStripeDashboard, useStripeOnboarding } from '../api/earnings';
import { requirementsInWords } from '../lib/stripe-requirements';

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });
const byName = [...PAYOUT_COUNTRIES].sort((a, b) =>
  (countryNames.of(a) ?? a).localeCompare(countryNames.of(b) ?? b),
);

/** The browser's own region when Stripe can pay there, else the platform's. */
function likelyCountry(): PayoutCountry {
  const region = new Intl.Locale(navigator.language).maximize().region;
  return PAYOUT_COUNTRIES.find((country) => country === region) ?? 'US';
}

/** What the account's state means for the creator. */
function describe({ provider, connected, payoutsEnabled, requirements }: Account): string {
  if (provider === 'none') return `Payouts are recorded as due and paid by the ${BRAND_NAME} team.`;
  if (payoutsEnabled) return 'Stripe connected: payouts go to your Stripe account.';
  if (connected) {
    return requirements.length > 0
      ? 'Stripe needs a few more details before it can send you payouts:'
      : 'Stripe is checking your details.';
  }
  return 'Connect a Stripe account to receive your payouts.';
}

/**
 * Where payouts go: paid by hand without a provider, else to the creator's Stripe Express account,
 * opened in the country they are paid in, with what Stripe still needs and a way to their dashboard.
 */
export function PayoutAccount({ account }: { account: Account }) {
  const onboarding = useStripeOnboarding();
  const dashboard = useStripeDashboard();
  const [country, setCountry] = useState(likelyCountry);
  const needs = requirementsInWords(account.requirements);
  const isNew = account.provider === 'stripe' && !account.connected;
  return (
    <Card className="space-y-4 p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">Payout account</h2>
          <p className="mt-1 text-sm text-slate-600">{describe(account)}</p>
          {needs.length > 0 ? (
            <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm text-slate-700">
              {needs.map((need) => (
                <li key={need}>{need}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-3">
          {account.provider === 'stripe' && !account.payoutsEnabled ? (
            <Button onClick={() => onboarding.mutate({ country })} disabled={onboarding.isPending}>
              {isNew ? 'Connect Stripe' : 'Finish Stripe onboarding'}
            </Button>
          ) : null}
          {account.payoutsEnabled ? (
            <Button variant="secondary" onClick={() => dashboard.mutate()} disabled={dashboard.isPending}>
              Open Stripe dashboard
            </Button>
          ) : null}
        </div>
      </div>
      {isNew ? (
        <div className="max-w-xs">
          <Select
            label="Country where you get paid"
            hint="Stripe asks for a bank account there. It cannot be changed later."
            value={country}
            onChange={(event) => setCountry(event.target.value as PayoutCountry)}
          >
            {byName.map((code) => (
              <option key={code} value={code}>
                {countryNames.of(code) ?? code}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
    </Card>
  );
}
