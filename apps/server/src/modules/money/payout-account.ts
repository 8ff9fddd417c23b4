import type { OnboardingRequest, PayoutAccount } from '@stagedoor/shared/money';
import type { AccountRow } from '../accounts/accounts.tables';
import { changeSettings, findAccountOfStripe } from '../accounts/accounts.service';
import type { Deps } from '../../deps';
import { AppError } from '../../errors';
import { PaymentRefusedError, type CardPayments } from '../payments/payments';

const NO_PAYOUT_ACCOUNT_MESSAGE =
  'Payouts are paid by the Stagedoor team: there is no payment account to connect';
const NOT_CONNECTED_MESSAGE = 'Connect a Stripe account first';
const ONBOARDING_UNFINISHED_MESSAGE = 'Finish Stripe onboarding first: your Stripe dashboard opens after it';

type AccountDeps = Pick<Deps, 'db' | 'payments'>;

/**
 * GET /payments/account: where the creator's payouts go, and what Stripe still needs from them. The
 * account is read from Stripe each time (requirements come and go); whether it takes payouts is kept
 * on the creator's row for the payout job (account.updated keeps it too).
 */
export async function getPayoutAccount(deps: AccountDeps, creator: AccountRow): Promise<PayoutAccount> {
  const none = { connected: false, payoutsEnabled: false, country: null, requirements: [] };
  if (!deps.payments) return { provider: 'none', ...none };
  if (!creator.stripeAccountId) return { provider: 'stripe', ...none };
  const account = await deps.payments.connectedAccount(creator.stripeAccountId);
  await keepPayoutsEnabled(deps, creator.id, account.payoutsEnabled);
  return {
    provider: 'stripe',
    connected: true,
    payoutsEnabled: account.payoutsEnabled,
    country: account.country,
    requirements: account.requirements,
  };
}

/**
 * POST /payments/account/onboarding: the creator's Express account (made once, in the country they
 * chose) and its onboarding page.
 */
export async function startOnboarding(
  deps: AccountDeps,
  creator: AccountRow,
  request: OnboardingRequest,
  returnUrl: string,
): Promise<{ url: string }> {
  const payments = providerOf(deps);
  let accountId = creator.stripeAccountId;
  if (!accountId) {
    // Stripe answers the same account to the same idempotency key: a double click makes one.
    accountId = await payments.createAccount(creator, request.country);
    await changeSettings(deps.db, creator.id, { stripeAccountId: accountId });
  }
  return { url: await payments.onboardingLink(accountId, { returnUrl, refreshUrl: returnUrl }) };
}

/** POST /payments/account/dashboard: a sign-in link to the creator's Express dashboard. */
export async function openDashboard(deps: AccountDeps, creator: AccountRow): Promise<{ url: string }> {
  const payments = providerOf(deps);
  if (!creator.stripeAccountId) throw new AppError('CONFLICT', NOT_CONNECTED_MESSAGE);
  try {
    return { url: await payments.dashboardLink(creator.stripeAccountId) };
  } catch (error) {
    if (error instanceof PaymentRefusedError) throw new AppError('CONFLICT', ONBOARDING_UNFINISHED_MESSAGE);
    throw error;
  }
}

/**
 * A creator's Express account changed at Stripe (account.updated): whether it takes payouts is read
 * afresh, so events arriving out of order leave Stripe's latest answer in place.
 */
export async function payoutAccountChanged(deps: AccountDeps, accountId: string): Promise<void> {
  const creator = await findAccountOfStripe(deps, accountId);
  if (!creator) return;
  const account = await providerOf(deps).connectedAccount(accountId);
  await keepPayoutsEnabled(deps, creator.id, account.payoutsEnabled);
}

async function keepPayoutsEnabled(deps: AccountDeps, creatorId: number, enabled: boolean): Promise<void> {
  await changeSettings(deps.db, creatorId, { stripePayoutsEnabled: enabled });
}

function providerOf(deps: AccountDeps): CardPayments {
  if (!deps.payments) throw new AppError('CONFLICT', NO_PAYOUT_ACCOUNT_MESSAGE);
  return deps.payments;
}
