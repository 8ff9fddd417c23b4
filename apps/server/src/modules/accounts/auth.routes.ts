import {
  ROLES,
  ZAuthResponse,
  ZChangePasswordRequest,
  ZForgotPasswordRequest,
  ZResetLinkCheckRequest,
  ZResetPasswordRequest,
  ZLoginRequest,
  ZProfileUpdateRequest,
  ZRegisterRequest,
  ZSessionUser,
  ZUserEnvelope,
  ZVerifyTokenResponse,
  type AuthResponse,
  type LoginRequest,
} from '@stagedoor/shared/accounts';
import { PROFILE_IMAGE_MESSAGES } from '@stagedoor/shared/images';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError, hasCode, parseOrThrow } from '../../errors';
import { authenticate, bearerToken, requireAuth, signedInAccount } from './sessions';
import { readMultipartForm } from '../../plugins/multipart';
import { ANONYMOUS_BODY_LIMIT } from '../../plugins/json-body';
import { limitFailures, limitRequests, type Limit } from '../../plugins/rate-limit';
import { loginGuard } from './login-guard';
import { TaskTracker } from '../../tasks';
import {
  changePassword,
  checkResetLink,
  logIn,
  logOut,
  logOutEverywhere,
  registerAccount,
  requestPasswordReset,
  resetPassword,
} from './auth.service';
import { updateProfile } from './profile.service';
import { toSessionUser } from './session-user';

/** Registrations refused because the email is taken: probing which addresses have accounts. */
export const CONFLICTS_PER_EMAIL: Limit = { max: 10, windowMs: 15 * 60_000 };

const PICK_AN_IMAGE_MESSAGE = 'Please choose an image';
const RESET_REQUESTED_MESSAGE =
  'If an account has this email, a link to choose a new password is on its way.';
/** Reset links one email address may be sent. */
const RESETS_PER_EMAIL: Limit = { max: 3, windowMs: 60 * 60_000 };

export const authRoutes: FastifyPluginAsyncZod = async (app) => {
  // Login and registration requests from one IP, all four routes together.
  const requestsPerIp = limitRequests(app, 'auth-address', {
    max: app.deps.config.authRequestsPerIpPerMinute,
    windowMs: 60_000,
  });
  // The handlers run after validation, so the body is a valid (lower-cased) email by then.
  const emailOf = (request: FastifyRequest) => (request.body as Pick<LoginRequest, 'email'>).email;
  const logins = loginGuard(app);
  const registerConflicts = limitFailures(app, 'register-email', CONFLICTS_PER_EMAIL, emailOf);

  /**
   * After a new password, the account's open sockets (signed in with tokens now revoked) are closed:
   * its clients reconnect with the new token, anyone else's must sign in again.
   */
  const signedOutElsewhere = async (session: AuthResponse): Promise<AuthResponse> => {
    await app.live.disconnectAccount(session.user.id);
    return session;
  };

  for (const role of ROLES) {
    app.post(
      `/auth/register/${role}`,
      {
        onRequest: requestsPerIp,
        bodyLimit: ANONYMOUS_BODY_LIMIT,
        schema: { body: ZRegisterRequest, response: { 201: ZAuthResponse } },
      },
      async (request, reply) => {
        const session = await registerConflicts.attempt(request, reply, hasCode('CONFLICT'), () =>
          registerAccount(app.deps, role, request.body),
        );
        return reply.code(201).send(session);
      },
    );

    app.post(
      `/auth/login/${role}`,
      {
        onRequest: requestsPerIp,
        bodyLimit: ANONYMOUS_BODY_LIMIT,
        schema: { body: ZLoginRequest, response: { 200: ZAuthResponse } },
      },
      (request, reply) =>
        logins.attempt(request, reply, request.body.email, () => logIn(app.deps, role, request.body)),
    );

    app.get(
      `/auth/profile/${role}`,
      { preHandler: requireAuth(role), schema: { response: { 200: ZSessionUser } } },
      async (request) => toSessionUser(signedInAccount(request)),
    );

    app.patch(
      `/auth/profile/${role}`,
      {
        preHandler: requireAuth(role),
        // A creator's name and nickname show on their events and page.
        config: { changesCatalogue: true },
        schema: { body: ZProfileUpdateRequest, response: { 200: ZUserEnvelope } },
      },
      async (request) => ({ user: await updateProfile(app.deps, signedInAccount(request), request.body) }),
    );
  }

  // The web app calls this at start with whatever token it kept: an unusable one is an answer, not an error.
  app.get('/auth/verify-token', { schema: { response: { 200: ZVerifyTokenResponse } } }, async (request) => {
    try {
      return { valid: true, user: toSessionUser(await authenticate(request)) };
    } catch (error) {
      if (hasCode('UNAUTHORIZED')(error)) return { valid: false, user: null };
      throw error;
    }
  });

  // A reset request mails the account's owner: limited per IP like logins, and per email address.
  const resetsPerEmail = limitRequests(app, 'reset-email', RESETS_PER_EMAIL, emailOf);
  const resets = new TaskTracker(app.log, 'password reset');
  app.addHook('onClose', () => resets.settled());
  app.post(
    '/auth/forgot-password',
    {
      onRequest: requestsPerIp,
      preHandler: resetsPerEmail,
      bodyLimit: ANONYMOUS_BODY_LIMIT,
      schema: { body: ZForgotPasswordRequest },
    },
    async (request, reply) => {
      // Answered before the work starts: an email that is an account's takes no longer than one that is not.
      const { email } = request.body;
      setImmediate(() => resets.track(requestPasswordReset(app.deps, email, new Date())));
      return reply.code(202).send({ message: RESET_REQUESTED_MESSAGE });
    },
  );

  app.post(
    '/auth/reset-password/check',
    {
      onRequest: requestsPerIp,
      bodyLimit: ANONYMOUS_BODY_LIMIT,
      schema: { body: ZResetLinkCheckRequest },
    },
    async (request, reply) => {
      await checkResetLink(app.deps, request.body.token, new Date());
      return reply.code(204).send();
    },
  );

  app.post(
    '/auth/reset-password',
    {
      onRequest: requestsPerIp,
      bodyLimit: ANONYMOUS_BODY_LIMIT,
      schema: { body: ZResetPasswordRequest, response: { 200: ZAuthResponse } },
    },
    async (request) => signedOutElsewhere(await resetPassword(app.deps, request.body, new Date())),
  );

  // Signs this token out, and the sockets it opened. Answered 204 whatever the token: a client logging
  // out is never told it cannot.
  app.post('/auth/logout', { bodyLimit: ANONYMOUS_BODY_LIMIT }, async (request, reply) => {
    const tokenId = await logOut(app.deps, bearerToken(request.headers.authorization), new Date());
    if (tokenId) await app.live.disconnectSession(tokenId);
    return reply.code(204).send();
  });

  // Signs out every session of the account, this one included (Profile: "Log out from all devices").
  app.post('/auth/logout-all', { preHandler: requireAuth() }, async (request, reply) => {
    const account = signedInAccount(request);
    await logOutEverywhere(app.deps, account);
    await app.live.disconnectAccount(account.id);
    return reply.code(204).send();
  });

  app.post(
    '/auth/change-password',
    { preHandler: requireAuth(), schema: { body: ZChangePasswordRequest, response: { 200: ZAuthResponse } } },
    async (request) =>
      signedOutElsewhere(await changePassword(app.deps, signedInAccount(request), request.body)),
  );

  // The creator profile form, sent as multipart because of the optional header image. Like the spec's
  // client expects, it answers the user object itself (PATCH answers `{user}`).
  app.post(
    '/auth/profile/creator',
    {
      preHandler: requireAuth('creator'),
      config: { changesCatalogue: true },
      schema: { response: { 200: ZSessionUser } },
    },
    async (request) => {
      const form = await readMultipartForm(request, { headerImageUrl: PROFILE_IMAGE_MESSAGES });
      const input = parseOrThrow(ZProfileUpdateRequest, form.fields);
      const header = form.images.headerImageUrl;
      return updateProfile(
        app.deps,
        signedInAccount(request),
        input,
        header && { slot: 'headerImage', upload: header },
      );
    },
  );

  app.post(
    '/auth/profile/creator/profile-image',
    {
      preHandler: requireAuth('creator'),
      config: { changesCatalogue: true },
      schema: { response: { 200: ZSessionUser } },
    },
    async (request) => {
      const form = await readMultipartForm(request, { profileImageUrl: PROFILE_IMAGE_MESSAGES });
      const image = form.images.profileImageUrl;
      if (!image) {
        throw new AppError('VALIDATION_FAILED', PICK_AN_IMAGE_MESSAGE, {
          profileImageUrl: PICK_AN_IMAGE_MESSAGE,
        });
      }
      return updateProfile(app.deps, signedInAccount(request), {}, { slot: 'profileImage', upload: image });
    },
  );
};
