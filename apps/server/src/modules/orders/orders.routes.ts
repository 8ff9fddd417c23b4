import {
  IDEMPOTENCY_KEY_HEADER,
  ZConfirmCheckoutRequest,
  ZCreateOrderRequest,
  ZIdempotencyKey,
  ZOrder,
  ZOrderIdParams,
  ZOrderList,
  ZOrderListQuery,
  ZOrderQuote,
  ZOrderSummary,
  ZOrderSummaryQuery,
  ZTransferRequest,
} from '@stagedoor/shared/orders';
import { ZCreatorStats, ZEventIdParams } from '@stagedoor/shared/events';
import { ZJoinWaitlistRequest, ZWaitlistPlace } from '@stagedoor/shared/waitlist';
import { QUOTES_PER_ACCOUNT_PER_MINUTE } from '@stagedoor/shared/limits';
import { ZWatchLinkRequest, ZWatchLinkResponse } from '@stagedoor/shared/accounts';
import { ANONYMOUS_BODY_LIMIT } from '../../plugins/json-body';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { parseOrThrow } from '../../errors';
import { requireAuth, signedInAccount } from '../accounts/sessions';
import { limitRequests } from '../../plugins/rate-limit';
import { siteOrigin } from '../../site';
import {
  checkoutHeldOrder,
  confirmCheckout,
  getCreatorStats,
  getOrder,
  listOrders,
  purchaseTickets,
  quotePurchase,
  signInWithWatchLink,
  summarizeOrders,
  transferOrder,
} from './orders.service';
import { joinWaitlist, leaveWaitlist, waitlistPlace } from './waitlist.service';

// Read in the handler, not through a route `headers` schema: Fastify would replace request.headers with
// the parsed object, dropping every header the schema does not name.
const ZOrderHeaders = z.object({ [IDEMPOTENCY_KEY_HEADER]: ZIdempotencyKey.optional() });

export const orderRoutes: FastifyPluginAsyncZod = async (app) => {
  const ordersPerAccount = limitRequests(
    app,
    'orders-account',
    { max: app.deps.config.ordersPerAccountPerMinute, windowMs: 60_000 },
    (request) => String(signedInAccount(request).id),
  );

  // A creator's sales over all their events. A static segment wins over a parameter in Fastify's router,
  // so 'stats' never reaches events.routes.ts's /events/creator/:creatorId.
  app.get(
    '/events/creator/stats',
    { preHandler: requireAuth('creator'), schema: { response: { 200: ZCreatorStats } } },
    async (request) => getCreatorStats(app.deps, signedInAccount(request)),
  );

  app.post(
    '/orders',
    {
      preHandler: [requireAuth(), ordersPerAccount],
      schema: { body: ZCreateOrderRequest, response: { 200: ZOrder, 201: ZOrder } },
    },
    async (request, reply) => {
      const headers = parseOrThrow(ZOrderHeaders, {
        [IDEMPOTENCY_KEY_HEADER]: request.headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()],
      });
      const { order, replayed } = await purchaseTickets(
        app.deps,
        signedInAccount(request),
        request.body,
        { origin: siteOrigin(request) },
        headers[IDEMPOTENCY_KEY_HEADER],
      );
      if (replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(replayed ? 200 : 201).send(order);
    },
  );

  // A sold-out show's waitlist (DESIGN.md "Ticket options"): each signed-in fan's own place in it.
  app.get(
    '/events/:id/waitlist',
    { preHandler: requireAuth(), schema: { params: ZEventIdParams, response: { 200: ZWaitlistPlace } } },
    async (request) => waitlistPlace(app.deps, signedInAccount(request), request.params.id),
  );

  app.post(
    '/events/:id/waitlist',
    {
      preHandler: [requireAuth(), ordersPerAccount],
      schema: { params: ZEventIdParams, body: ZJoinWaitlistRequest, response: { 201: ZWaitlistPlace } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await joinWaitlist(app.deps, signedInAccount(request), request.params.id, request.body)),
  );

  app.delete(
    '/events/:id/waitlist',
    { preHandler: [requireAuth(), ordersPerAccount], schema: { params: ZEventIdParams } },
    async (request, reply) => {
      await leaveWaitlist(app.deps, signedInAccount(request), request.params.id);
      return reply.code(204).send();
    },
  );

  // A quote tells whether a promo code exists: asked at a human's pace, so codes cannot be guessed by trying.
  const quotesPerAccount = limitRequests(
    app,
    'quotes-account',
    { max: QUOTES_PER_ACCOUNT_PER_MINUTE, windowMs: 60_000 },
    (request) => String(signedInAccount(request).id),
  );

  app.post(
    '/orders/quote',
    {
      preHandler: [requireAuth(), quotesPerAccount],
      schema: { body: ZCreateOrderRequest, response: { 200: ZOrderQuote } },
    },
    async (request) => quotePurchase(app.deps, signedInAccount(request), request.body),
  );

  app.get(
    '/orders',
    { preHandler: requireAuth(), schema: { querystring: ZOrderListQuery, response: { 200: ZOrderList } } },
    async (request) => listOrders(app.deps, signedInAccount(request), request.query),
  );

  app.get(
    '/orders/summary',
    {
      preHandler: requireAuth(),
      schema: { querystring: ZOrderSummaryQuery, response: { 200: ZOrderSummary } },
    },
    async (request) => summarizeOrders(app.deps, signedInAccount(request), request.query.eventId),
  );

  app.post(
    '/orders/:id/confirm',
    {
      preHandler: [requireAuth(), ordersPerAccount],
      schema: { params: ZOrderIdParams, body: ZConfirmCheckoutRequest, response: { 200: ZOrder } },
    },
    async (request) =>
      confirmCheckout(app.deps, signedInAccount(request), request.params.id, request.body.sessionId),
  );

  // Tickets held for the caller (their turn on a waitlist): completed at once, or their checkout opened.
  app.post(
    '/orders/:id/checkout',
    {
      preHandler: [requireAuth(), ordersPerAccount],
      schema: { params: ZOrderIdParams, response: { 200: ZOrder } },
    },
    async (request) =>
      checkoutHeldOrder(app.deps, signedInAccount(request), request.params.id, {
        origin: siteOrigin(request),
      }),
  );

  app.post(
    '/orders/:id/transfer',
    {
      preHandler: [requireAuth(), ordersPerAccount],
      schema: { params: ZOrderIdParams, body: ZTransferRequest },
    },
    async (request, reply) => {
      await transferOrder(
        app.deps,
        signedInAccount(request),
        request.params.id,
        request.body.email,
        new Date(),
      );
      return reply.code(204).send();
    },
  );

  // A watch link from a mail signs its ticket holder in: anonymous, so limited per client like logins.
  const watchLinksPerIp = limitRequests(app, 'watch-link-address', {
    max: app.deps.config.authRequestsPerIpPerMinute,
    windowMs: 60_000,
  });
  app.post(
    '/auth/watch-link',
    {
      onRequest: watchLinksPerIp,
      bodyLimit: ANONYMOUS_BODY_LIMIT,
      schema: { body: ZWatchLinkRequest, response: { 200: ZWatchLinkResponse } },
    },
    async (request) => signInWithWatchLink(app.deps, request.body.token, new Date()),
  );

  app.get(
    '/orders/:id',
    { preHandler: requireAuth(), schema: { params: ZOrderIdParams, response: { 200: ZOrder } } },
    async (request) => getOrder(app.deps, signedInAccount(request), request.params.id),
  );
};
