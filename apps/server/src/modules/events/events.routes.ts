import { ZNicknameParams } from '@stagedoor/shared/creators';
import {
  ZCreateEventRequest,
  ZCreatorEventsQuery,
  ZCreatorIdParams,
  ZEvent,
  ZEventIdParams,
  ZEventList,
  ZEventListQuery,
  ZUpdateEventRequest,
} from '@stagedoor/shared/events';
import { EVENT_IMAGE_MESSAGES } from '@stagedoor/shared/images';
import { ZCreatePromoCodeRequest, ZPromoCode, ZPromoCodeList } from '@stagedoor/shared/promo-codes';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, parseOrThrow } from '../../errors';
import { readMultipartForm, type ImageUpload } from '../../plugins/multipart';
import { limitRequests, type Limit } from '../../plugins/rate-limit';
import { siteOrigin } from '../../site';
import { claimedAccountId, optionalAccount, requireAuth, signedInAccount } from '../accounts/sessions';
import {
  createEvent,
  deleteEvent,
  getEvent,
  getEventCalendar,
  getEventForEditing,
  listCreatorEvents,
  listCreatorUpcomingEvents,
  listEvents,
  updateEvent,
} from './events.service';
import { createPromoCode, listPromoCodes } from './promo-codes';

/**
 * Events one creator may create in an hour (decision 0032): a creator setting up a season needs a few
 * dozen at most; a script making thousands fills the catalogue and its cache.
 */
export const EVENTS_PER_CREATOR: Limit = { max: 30, windowMs: 60 * 60_000 };

export const eventRoutes: FastifyPluginAsyncZod = async (app) => {
  const eventsPerCreator = limitRequests(app, 'events-creator', EVENTS_PER_CREATOR, (request) =>
    String(signedInAccount(request).id),
  );

  app.get(
    '/events',
    { schema: { querystring: ZEventListQuery, response: { 200: ZEventList } } },
    async (request, reply) => app.catalogue.reply(request, reply, () => listEvents(app.deps, request.query)),
  );

  app.get(
    '/events/creator/:creatorId',
    {
      schema: { params: ZCreatorIdParams, querystring: ZCreatorEventsQuery, response: { 200: ZEventList } },
    },
    async (request, reply) => {
      const { creatorId } = request.params;
      // The creator sees every event of theirs, fresh; anyone else the public list, from the cache.
      if ((await claimedAccountId(request)) === creatorId) {
        return listCreatorEvents(app.deps, await optionalAccount(request), creatorId, request.query);
      }
      return app.catalogue.reply(request, reply, () =>
        listCreatorEvents(app.deps, null, creatorId, request.query),
      );
    },
  );

  // A creator's public page lists what it offers for sale (its profile comes from creators.routes.ts).
  app.get(
    '/creators/:nickname/events',
    { schema: { params: ZNicknameParams, querystring: ZCreatorEventsQuery, response: { 200: ZEventList } } },
    async (request, reply) =>
      app.catalogue.reply(request, reply, () =>
        listCreatorUpcomingEvents(app.deps, request.params.nickname, request.query),
      ),
  );

  app.get(
    '/events/creators/:id/details',
    { preHandler: requireAuth('creator'), schema: { params: ZEventIdParams, response: { 200: ZEvent } } },
    async (request) => getEventForEditing(app.deps, signedInAccount(request), request.params.id),
  );

  app.get('/events/:id/calendar.ics', { schema: { params: ZEventIdParams } }, async (request, reply) =>
    reply
      .header('content-type', 'text/calendar; charset=utf-8')
      .header('content-disposition', `attachment; filename="stagedoor-event-${request.params.id}.ics"`)
      .send(await getEventCalendar(app.deps, request.params.id, siteOrigin(request))),
  );

  app.get(
    '/events/:id',
    { schema: { params: ZEventIdParams, response: { 200: ZEvent } } },
    async (request, reply) =>
      app.catalogue.reply(request, reply, () => getEvent(app.deps, request.params.id)),
  );

  app.post(
    '/events',
    {
      preHandler: [requireAuth('creator'), eventsPerCreator],
      config: { changesCatalogue: true },
      schema: { response: { 201: ZEvent } },
    },
    async (request, reply) => {
      const form = await readEventForm(request);
      const input = parseOrThrow(ZCreateEventRequest, form.fields);
      const event = await createEvent(app.deps, signedInAccount(request), input, form.image);
      return reply.code(201).send(event);
    },
  );

  app.post(
    '/events/:id',
    {
      preHandler: requireAuth('creator'),
      config: { changesCatalogue: true },
      schema: { params: ZEventIdParams, response: { 200: ZEvent } },
    },
    async (request) => {
      const form = await readEventForm(request);
      const input = parseOrThrow(ZUpdateEventRequest, form.fields);
      return updateEvent(app.deps, signedInAccount(request), request.params.id, input, form.image);
    },
  );

  app.post(
    '/events/:id/promo-codes',
    {
      preHandler: requireAuth('creator'),
      schema: { params: ZEventIdParams, body: ZCreatePromoCodeRequest, response: { 201: ZPromoCode } },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await createPromoCode(app.deps, signedInAccount(request), request.params.id, request.body)),
  );

  app.get(
    '/events/:id/promo-codes',
    {
      preHandler: requireAuth('creator'),
      schema: { params: ZEventIdParams, response: { 200: ZPromoCodeList } },
    },
    async (request) => listPromoCodes(app.deps, signedInAccount(request), request.params.id),
  );

  app.delete(
    '/events/:id',
    {
      preHandler: requireAuth('creator'),
      config: { changesCatalogue: true },
      schema: { params: ZEventIdParams },
    },
    async (request, reply) => {
      await deleteEvent(app.deps, signedInAccount(request), request.params.id);
      return reply.code(204).send();
    },
  );
};

/**
 * The event form arrives as JSON, or as multipart (text fields and an optional file `image`); both are
 * validated by the same schema, the multipart text fields being coerced by it.
 */
async function readEventForm(request: FastifyRequest): Promise<{ fields: unknown; image?: ImageUpload }> {
  if (!request.isMultipart()) return { fields: request.body ?? {} };
  const form = await readMultipartForm(request, { image: EVENT_IMAGE_MESSAGES });
  const { ticketTypes, ...fields } = form.fields;
  if (ticketTypes === undefined) return { fields, image: form.images.image };
  // A form's field is text: its ticket types travel as JSON.
  return {
    fields: { ...fields, ticketTypes: parseJsonField('ticketTypes', ticketTypes) },
    image: form.images.image,
  };
}

const TICKET_TYPES_NOT_JSON_MESSAGE = 'Ticket types must be a JSON list';

function parseJsonField(field: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('VALIDATION_FAILED', TICKET_TYPES_NOT_JSON_MESSAGE, {
      [field]: TICKET_TYPES_NOT_JSON_MESSAGE,
    });
  }
}
