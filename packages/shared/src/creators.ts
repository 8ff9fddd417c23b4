import { z } from 'zod';
import { ZSessionUser } from './accounts';
import { positiveId } from './events';

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

/** GET /creators/profile/{nickname}, GET /creators/{nickname}/events: any case matches. */
export const ZNicknameParams = z.object({ nickname: z.string().trim().min(1) });

/** GET /users/{id} */
export const ZUserIdParams = z.object({ id: positiveId('User id') });

/**
 * GET /users/{id}: the simple creator view titles the page with `email` (spec §2); DESIGN.md puts the
 * creator's full name there unless the viewer is that creator. Otherwise the session user's shape.
 * Only creator accounts are public; a spectator's id is a 404 to anyone but that spectator.
 */
export const ZPublicUser = ZSessionUser;
export type PublicUser = z.infer<typeof ZPublicUser>;
