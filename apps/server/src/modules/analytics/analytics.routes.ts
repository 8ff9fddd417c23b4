import { ZEventAnalytics, ZPageViewRequest } from '@stagedoor/shared/analytics';
import { ZEventIdParams } from '@stagedoor/shared/events';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ANONYMOUS_BODY_LIMIT } from '../../plugins/json-body';
import { clientKey, limitRequests, type Limit } from '../../plugins/rate-limit';
import { claimedAccountId, requireAuth, signedInAccount } from '../accounts/sessions';
import { eventAnalytics, recordPageView } from './analytics.service';
import { visitLog } from './visits';

/**
 * Page visits one address may report a minute: a fan sends one per page opened (two to buy), so even a
 * household browsing the catalogue together stays well within it.
 */
export const PAGE_VIEWS_PER_ADDRESS: Limit = { max: 60, windowMs: 60_000 };

/** A show's numbers (DESIGN.md "Attendees and analytics"): the pages' visits, and the creator's read. */
export const analyticsRoutes: FastifyPluginAsyncZod = async (app) => {
  const visits = visitLog();
  const viewsPerAddress = limitRequests(app, 'page-views-address', PAGE_VIEWS_PER_ADDRESS);

  // Anyone may report a visit: checked on the headers (the limit) before the body is read, and the
  // token only by its signature, with no look-up (it says whose visit it was, and grants nothing).
  app.post(
    '/events/:id/views',
    {
      onRequest: viewsPerAddress,
      bodyLimit: ANONYMOUS_BODY_LIMIT,
      schema: { params: ZEventIdParams, body: ZPageViewRequest },
    },
    async (request, reply) => {
      const accountId = await claimedAccountId(request);
      await recordPageView(
        app.deps,
        visits,
        {
          eventId: request.params.id,
          page: request.body.page,
          visitor:
            accountId === null
              ? { address: clientKey(request), userAgent: request.headers['user-agent'] ?? '' }
              : { accountId },
        },
        new Date(),
      );
      return reply.code(204).send();
    },
  );

  app.get(
    '/events/:id/analytics',
    {
      preHandler: requireAuth('creator'),
      schema: { params: ZEventIdParams, response: { 200: ZEventAnalytics } },
    },
    async (request) => eventAnalytics(app.deps, signedInAccount(request), request.params.id),
  );
};
