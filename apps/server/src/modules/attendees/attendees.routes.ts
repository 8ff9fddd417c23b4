import {
  ZAttendeeList,
  ZAttendeeListQuery,
  ZAttendeeMessagePreview,
  ZAttendeeMessageRequest,
  ZAttendeeMessageSent,
} from '@stagedoor/shared/attendees';
import { ZEventIdParams } from '@stagedoor/shared/events';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tooManyAttempts } from '../../plugins/rate-limit';
import { requireAuth, signedInAccount } from '../accounts/sessions';
import { attendeesCsv, listEventAttendees, messageAttendees, previewMessage } from './attendees.service';

/** An event's attendees and messages to them (DESIGN.md "Attendees and analytics"): its creator's alone. */
export const attendeeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/events/:id/attendees',
    {
      preHandler: requireAuth('creator'),
      schema: { params: ZEventIdParams, querystring: ZAttendeeListQuery, response: { 200: ZAttendeeList } },
    },
    async (request) =>
      listEventAttendees(app.deps, signedInAccount(request), request.params.id, request.query),
  );

  app.get(
    '/events/:id/attendees.csv',
    { preHandler: requireAuth('creator'), schema: { params: ZEventIdParams } },
    async (request, reply) => {
      const { fileName, csv } = await attendeesCsv(app.deps, signedInAccount(request), request.params.id);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(csv);
    },
  );

  app.post(
    '/events/:id/message/preview',
    {
      preHandler: requireAuth('creator'),
      schema: {
        params: ZEventIdParams,
        body: ZAttendeeMessageRequest,
        response: { 200: ZAttendeeMessagePreview },
      },
    },
    async (request) => previewMessage(app.deps, signedInAccount(request), request.params.id, request.body),
  );

  app.post(
    '/events/:id/message',
    {
      preHandler: requireAuth('creator'),
      schema: {
        params: ZEventIdParams,
        body: ZAttendeeMessageRequest,
        response: { 200: ZAttendeeMessageSent },
      },
    },
    async (request, reply) => {
      const outcome = await messageAttendees(
        app.deps,
        signedInAccount(request),
        request.params.id,
        request.body,
        new Date(),
      );
      if ('limited' in outcome) throw tooManyAttempts(reply, outcome.limited.waitMs, outcome.limited.reason);
      return outcome.sent;
    },
  );
};
