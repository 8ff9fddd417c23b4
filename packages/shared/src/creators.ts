import { z } from 'zod';
import { ZSessionUser } from './auth';

/** GET /creators/{id}, GET /creators/profile/{nickname} (spec §3 "Public creator profile"): no email. */
export const ZPublicCreator = z.object({
  id: z.number().int(),
  nickname: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  creatorInfo: z.object({
    headerImageUrl: z.string().nullable(),
    profileImageUrl: z.string().nullable(),
    biography: z.string().nullable(),
  }),
});
export type PublicCreator = z.infer<typeof ZPublicCreator>;

/**
 * GET /users/{id}: the simple creator view titles the page with `email` (spec §2); DESIGN.md puts the
 * creator's name there unless the viewer is that creator. Otherwise the session user's shape.
 */
export const ZPublicUser = ZSessionUser;
export type PublicUser = z.infer<typeof ZPublicUser>;
