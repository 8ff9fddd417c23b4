import { ZEventIdParams } from '@stagedoor/shared/events';
import {
  ZCancellation,
  ZEarnings,
  ZOnboardingLink,
  ZOnboardingRequest,
  ZPaymentsConfig,
  ZPayoutAccount,
  ZPayoutList,
} from '@stagedoor/shared/money';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth, signedInAccount } from '../accounts/sessions';
import { siteOrigin } from '../../site';
import { cancelEvent } from './cancellation';
import { earningsCsv, getEarnings, listPayouts } from './earnings.service';
import { getPayoutAccount, openDashboard, startOnboarding } from './payout-account';

export const moneyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/payments/config', { schema: { response: { 200: ZPaymentsConfig } } }, async () => ({
    provider: app.deps.payments ? ('stripe' as const) : ('none' as const),
    holdMinutes: app.deps.config.checkoutHoldMinutes,
  }));

  app.post(
    '/events/:id/cancel',
    {
      preHandler: requireAuth('creator'),
      config: { changesCatalogue: true },
      schema: { params: ZEventIdParams, response: { 200: ZCancellation } },
    },
    async (request) => {
      const cancellation = await cancelEvent(
        app.deps,
        signedInAccount(request),
        request.params.id,
        new Date(),
      );
      await app.live.endStream(request.params.id);
      return cancellation;
    },
  );

  app.get(
    '/earnings',
    { preHandler: requireAuth('creator'), schema: { response: { 200: ZEarnings } } },
    async (request) => getEarnings(app.deps, signedInAccount(request)),
  );

  app.get('/earnings.csv', { preHandler: requireAuth('creator') }, async (request, reply) =>
    reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="stagedoor-earnings.csv"')
      .send(await earningsCsv(app.deps, signedInAccount(request))),
  );

  app.get(
    '/payouts',
    { preHandler: requireAuth('creator'), schema: { response: { 200: ZPayoutList } } },
    async (request) => listPayouts(app.deps, signedInAccount(request)),
  );

  app.get(
    '/payments/account',
    { preHandler: requireAuth('creator'), schema: { response: { 200: ZPayoutAccount } } },
    async (request) => getPayoutAccount(app.deps, signedInAccount(request)),
  );

  app.post(
    '/payments/account/onboarding',
    {
      preHandler: requireAuth('creator'),
      schema: { body: ZOnboardingRequest, response: { 200: ZOnboardingLink } },
    },
    async (request) =>
      startOnboarding(
        app.deps,
        signedInAccount(request),
        request.body,
        `${siteOrigin(request)}/creators/dashboard/earnings`,
      ),
  );

  app.post(
    '/payments/account/dashboard',
    { preHandler: requireAuth('creator'), schema: { response: { 200: ZOnboardingLink } } },
    async (request) => openDashboard(app.deps, signedInAccount(request)),
  );
};
