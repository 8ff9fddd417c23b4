import { positiveId, ZEventIdParams } from '@stagedoor/shared/events';
import { z } from 'zod';
import { ZLiveConfig, ZLiveStatus, type MediaMode } from '@stagedoor/shared/live';
import { ZReplayChat } from '@stagedoor/shared/replays';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IceServer } from '../config';
import { optionalAccount, requireAuth, signedInAccount } from '../modules/accounts/sessions';
import { replayableEvent, showTimeline } from '../modules/replays/replays.service';
import { showChat } from './chat';
import { mayRelay } from './access';
import { turnServerFor } from './turn';

const isStun = (server: IceServer) => [server.urls].flat().every((url) => /^stuns?:/.test(url));

/** GET /live/config?eventId: the show the peer connections are for, which decides on TURN. */
const ZLiveConfigQuery = z.object({ eventId: positiveId('eventId').optional() });

export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { iceServers, turn, janus } = app.deps.config;
  const media: MediaMode = janus ? 'janus' : 'p2p';
  // A TURN server relays traffic at the operator's cost: visitors and expired sessions get STUN only;
  // a signed-in account the configured servers, and with TURN_SECRET credentials of its own, only for a
  // show it may relay now (access.ts mayRelay), valid TURN_TTL_S for new relays.
  app.get(
    '/live/config',
    { schema: { querystring: ZLiveConfigQuery, response: { 200: ZLiveConfig } } },
    async (request, reply) => {
      const account = await optionalAccount(request);
      // Credentials are per account and expire: no cache may keep or share them.
      reply.header('cache-control', 'no-store');
      if (!account) return { iceServers: iceServers.filter(isStun), media };
      const { eventId } = request.query;
      const relays =
        turn &&
        eventId !== undefined &&
        (await mayRelay(app.deps, app.live.isLive, account, eventId, new Date()));
      return { iceServers: relays ? [...iceServers, turnServerFor(turn, account.id)] : iceServers, media };
    },
  );

  // The event page asks every few seconds around the show to offer "Watch now"; an answer kept by a
  // cache would hide the start of the show from everyone behind it.
  app.get(
    '/events/:id/live',
    { schema: { params: ZEventIdParams, response: { 200: ZLiveStatus } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { live: await app.live.isLive(request.params.id) };
    },
  );

  // The replay's chat: what was said while the show was on, each message at its moment in the replay.
  app.get(
    '/events/:id/chat',
    { preHandler: requireAuth(), schema: { params: ZEventIdParams, response: { 200: ZReplayChat } } },
    async (request) => {
      const account = signedInAccount(request);
      const event = await replayableEvent(app.deps, account, request.params.id);
      const timeline = await showTimeline(app.deps, event.id);
      if (!timeline) return { messages: [] };
      return { messages: await showChat(app.deps, account, event, timeline, timeline.offsetOf) };
    },
  );
};
