import { ZNicknameParams, ZPublicCreator } from '@stagedoor/shared/creators';
import { ZCreatorIdParams } from '@stagedoor/shared/events';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { findCreatorById, findCreatorByNickname, toPublicCreator } from './creators.service';

/**
 * Beside the image routes /creators/header-image/:file and /creators/profile-image/:file. Static
 * segments win in Fastify's router, so those words are reserved nicknames (see nicknames.ts): a
 * creator called "profile" would otherwise never reach /creators/profile/events.
 */
export const creatorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/creators/:creatorId',
    { schema: { params: ZCreatorIdParams, response: { 200: ZPublicCreator } } },
    async (request, reply) =>
      app.catalogue.reply(request, reply, async () =>
        toPublicCreator(await findCreatorById(app.deps, request.params.creatorId)),
      ),
  );

  app.get(
    '/creators/profile/:nickname',
    { schema: { params: ZNicknameParams, response: { 200: ZPublicCreator } } },
    async (request, reply) =>
      app.catalogue.reply(request, reply, async () =>
        toPublicCreator(await findCreatorByNickname(app.deps, request.params.nickname)),
      ),
  );
};
