import type { ErrorBody } from '@stagedoor/shared/errors';
import type { PayoutAccount } from '@stagedoor/shared/money';
import { afterAll, describe, expect, it } from 'vitest';
import { api, authHeader, createCreator, getOk, type TestAccount } from '../../../test/factories';
import { stripeWorld } from '../../../test/stripe-world';

/** A creator's Stripe Express account: opened in their country, what Stripe still needs, their dashboard. */
const world = await stripeWorld();
const { standIn, app, connectStripe, deliverOk } = world;
afterAll(() => world.close());

const accountOf = (creator: TestAccount) => getOk<PayoutAccount>(app, '/api/payments/account', creator.token);

const post = (creator: TestAccount, url: string, payload?: object) =>
  api(app, { method: 'POST', url, headers: authHeader(creator.token), ...(payload && { payload }) });

const accountCalls = (creator: TestAccount) =>
  standIn
    .callsTo('POST', '/v1/accounts')
    .filter((call) => (call.params.metadata as { creatorId?: string }).creatorId === String(creator.user.id));

describe('the payout account', () => {
  it("is an Express account in the creator's country, described by Stripe's current properties", async () => {
    const creator = await createCreator(app);
    await connectStripe(creator, 'US');

    expect(accountCalls(creator).map((call) => call.params)).toEqual([
      expect.objectContaining({
        country: 'US',
        controller: {
          stripe_dashboard: { type: 'express' },
          fees: { payer: 'application' },
          losses: { payments: 'application' },
          requirement_collection: 'stripe',
        },
        capabilities: { transfers: { requested: 'true' } },
      }),
    ]);
    expect(accountCalls(creator)[0]?.params).not.toHaveProperty('type');
    expect(accountCalls(creator)[0]?.params).not.toHaveProperty('tos_acceptance');
  });

  it('reaches a creator abroad under the recipient agreement, which cross-border payouts need', async () => {
    const creator = await createCreator(app);
    const accountId = await connectStripe(creator, 'FR');

    expect(accountCalls(creator)[0]?.params).toMatchObject({
      country: 'FR',
      tos_acceptance: { service_agreement: 'recipient' },
    });
    expect(standIn.get(accountId)).toMatchObject({ country: 'FR' });
    expect(await accountOf(creator)).toMatchObject({ connected: true, country: 'FR' });
  });

  it('refuses a country it cannot pay in, naming the field, and opens nothing', async () => {
    const creator = await createCreator(app);
    for (const payload of [{ country: 'KP' }, { country: 'us' }, {}]) {
      const response = await post(creator, '/api/payments/account/onboarding', payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json<ErrorBody>().fields).toEqual({ country: 'Choose the country where you get paid' });
    }
    expect(accountCalls(creator)).toEqual([]);
  });

  it('shows what Stripe still needs until it has it, and again when it asks for more', async () => {
    const creator = await createCreator(app);
    const accountId = await connectStripe(creator);
    const before = await accountOf(creator);
    expect(before).toMatchObject({ connected: true, payoutsEnabled: false });
    expect(before.requirements).toContain('external_account');

    await deliverOk(standIn.completeOnboarding(accountId));
    expect(await accountOf(creator)).toMatchObject({ payoutsEnabled: true, requirements: [] });

    await deliverOk(standIn.requireMore(accountId, ['individual.verification.document']));
    expect(await accountOf(creator)).toMatchObject({
      payoutsEnabled: false,
      requirements: ['individual.verification.document'],
    });
  });

  it('opens the Express dashboard once onboarding is done, and says to finish it before', async () => {
    const creator = await createCreator(app);
    const notConnected = await post(creator, '/api/payments/account/dashboard');
    expect(notConnected.statusCode).toBe(409);
    expect(notConnected.json<ErrorBody>().message).toBe('Connect a Stripe account first');

    const accountId = await connectStripe(creator);
    const unfinished = await post(creator, '/api/payments/account/dashboard');
    expect(unfinished.statusCode).toBe(409);
    expect(unfinished.json<ErrorBody>().message).toBe(
      'Finish Stripe onboarding first: your Stripe dashboard opens after it',
    );

    await deliverOk(standIn.completeOnboarding(accountId));
    const dashboard = await post(creator, '/api/payments/account/dashboard');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    expect(dashboard.json<{ url: string }>().url).toMatch(/^https:\/\/connect\.stripe\.com\/express\//);
  });
});
