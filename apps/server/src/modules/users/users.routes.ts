import { ZProfileUpdateRequest, ZSessionUser } from '@stagedoor/shared/auth';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth, signedInAccount } from '../../plugins/auth';
import { updateProfile } from '../auth/profile.service';

export const userRoutes: FastifyPluginAsyncZod = async (app) => {
  // Either role; the same rules as PATCH /auth/profile/{role}, but answering the user object itself.
  app.put(
    '/users/profile/info',
    { preHandler: requireAuth(), schema: { body: ZProfileUpdateRequest, response: { 200: ZSessionUser } } },
    async (request) => updateProfile(app.deps, signedInAccount(request), request.body),
  );
};
