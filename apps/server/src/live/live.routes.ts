import { ZLiveConfig } from '@stagedoor/shared/realtime';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../plugins/auth';

export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  // Signed-in only: TURN credentials, when ICE_SERVERS has some, are not for every visitor.
  app.get(
    '/live/config',
    { preHandler: requireAuth(), schema: { response: { 200: ZLiveConfig } } },
    async () => ({ iceServers: app.deps.config.iceServers }),
  );
};
