import { ZEventIdParams } from '@stagedoor/shared/events';
import { ZLiveConfig, ZLiveStatus, type MediaMode } from '@stagedoor/shared/live';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { IceServer } from '../config';
import { optionalAccount } from '../modules/accounts/sessions';
import { turnServerFor } from './turn';

const isStun = (server: IceServer) => [server.urls].flat().every((url) => /^stuns?:/.test(url));

export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  const { iceServers, turn, janus } = app.deps.config;
  const media: MediaMode = janus ? 'janus' : 'p2p';
  // A TURN server relays traffic at the operator's cost: only signed-in accounts are told of one (with
  // credentials of their own when TURN_SECRET is set); visitors and expired sessions get STUN only.
  app.get('/live/config', { schema: { response: { 200: ZLiveConfig } } }, async (request, reply) => {
    const account = await optionalAccount(request);
    // Credentials are per account and expire: no cache may keep or share them.
    reply.header('cache-control', 'no-store');
    if (!account) return { iceServers: iceServers.filter(isStun), media };
    return { iceServers: turn ? [...iceServers, turnServerFor(turn, account.id)] : iceServers, media };
  });

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
};
