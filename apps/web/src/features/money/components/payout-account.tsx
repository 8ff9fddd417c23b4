import type { PayoutAccount as Account } from '@stagedoor/shared/money';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { BRAND_NAME } from '../../../config/site';
import { useStripeOnboarding } from '../api/earnings';

/** What the account's state means for the creator, and the Stripe step still to take, if any. */
function describe({ provider, connected, payoutsEnabled }: Account): { text: string; step?: string } {
  if (provider === 'none') return { text: `Payouts are recorded as due and paid by the ${BRAND_NAME} team.` };
  if (payoutsEnabled) return { text: 'Stripe connected: payouts go to your Stripe account.' };
  if (connected) {
    return {
      text: 'Stripe needs a few more details before it can send you payouts.',
      step: 'Finish Stripe onboarding',
    };
  }
  return { text: 'Connect a Stripe account to receive your payouts.', step: 'Connect Stripe' };
}

/** Where payouts go: paid by hand without a provider, else to the creator's Stripe account once set up. */
export function PayoutAccount({ account }: { account: Account }) {
  const onboarding = useStripeOnboarding();
  const { text, step } = describe(account);
  return (
    <Card className="flex flex-wrap items-center justify-between gap-4 p-6">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">Payout account</h2>
        <p className="mt-1 text-sm text-slate-600">{text}</p>
      </div>
      {step ? (
        <Button onClick={() => onboarding.mutate()} disabled={onboarding.isPending}>
          {step}
        </Button>
      ) : null}
    </Card>
  );
}
