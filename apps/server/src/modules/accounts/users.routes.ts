import { ZProfileUpdateRequest, ZSessionUser } from '@stagedoor/shared/accounts';
import { ZPublicUser, ZUserIdParams } from '@stagedoor/shared/creators';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { optionalAccount, requireAuth, signedInAccount } from './sessions';
import { updateProfile } from './profile.service';
import { getPublicUser } from './users.service';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  // Either role; the same rules as PATCH /auth/profile/{role}, but answering the user object itself.
  app.put(
    '/users/profile/info',
    { preHandler: requireAuth(), schema: { body: ZProfileUpdateRequest, response: { 200: ZSessionUser } } },
    async (request) => updateProfile(app.deps, signedInAccount(request), request.body),
  );

  app.get(
    '/users/:id',
    { schema: { params: ZUserIdParams, response: { 200: ZPublicUser } } },
    async (request) => getPublicUser(app.deps, await optionalAccount(request), request.params.id),
  );
};
