import send from '@fastify/send';
import { ZEventIdParams } from '@stagedoor/shared/events';
import {
  RECORDING_CHUNK_MAX_BYTES,
  ZRecordingChunkAnswer,
  ZRecordingChunkQuery,
  ZReplay,
} from '@stagedoor/shared/replays';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import { requireAuth, signedInAccount } from '../accounts/sessions';
import { eventFolder } from './replay-files';
import { deleteReplay, replayFor, assertReplayLink, storeRecordingChunk } from './replays.service';

/** The studio's chunks arrive as MediaRecorder made them. */
const CHUNK_TYPES = ['video/webm', 'application/octet-stream'];

const ZReplayLink = z.object({
  file: z.string().regex(/^replay-[\w-]{1,64}\.webm$/, 'file is not a replay'),
  expires: z.coerce.number({ error: 'expires must be a number' }).int('expires must be a whole number'),
  signature: z.string().min(1, 'signature is required').max(100, 'signature is too long'),
});

/** Replays (DESIGN.md "Replays"): the studio's recording, the replay's state and file, and its removal. */
export const replayRoutes: FastifyPluginAsyncZod<{ isLive: (eventId: number) => Promise<boolean> }> = async (
  app,
  { isLive },
) => {
  // Only this plugin's route reads such bodies, whole, up to a chunk's limit (Fastify answers 413 past it).
  app.addContentTypeParser(
    CHUNK_TYPES,
    { parseAs: 'buffer', bodyLimit: RECORDING_CHUNK_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  app.post(
    '/events/:id/recording',
    {
      // Checked on the headers, before a body of up to 16 MB is read for nobody.
      onRequest: requireAuth('creator'),
      bodyLimit: RECORDING_CHUNK_MAX_BYTES,
      schema: {
        params: ZEventIdParams,
        querystring: ZRecordingChunkQuery,
        response: { 200: ZRecordingChunkAnswer },
      },
    },
    async (request) => {
      if (!Buffer.isBuffer(request.body))
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'A chunk must be sent as video/webm');
      if (request.body.length === 0) {
        const message = 'The chunk is empty';
        throw new AppError('VALIDATION_FAILED', message, { body: message });
      }
      return storeRecordingChunk(
        app.deps,
        signedInAccount(request),
        request.params.id,
        request.query,
        request.body,
      );
    },
  );

  app.get(
    '/events/:id/replay',
    { preHandler: requireAuth(), schema: { params: ZEventIdParams, response: { 200: ZReplay } } },
    async (request, reply) => {
      // A signed address for this account, and a state that changes: nothing may keep it.
      reply.header('cache-control', 'no-store');
      return replayFor(app.deps, signedInAccount(request), request.params.id);
    },
  );

  // The file, by its signed address (a <video> element sends no bearer token): byte ranges, so a player
  // seeks anywhere; kept privately by the browser only as long as the address works.
  app.get(
    '/events/:id/replay/file',
    { schema: { params: ZEventIdParams, querystring: ZReplayLink } },
    async (request, reply) => {
      const { id } = request.params;
      const now = Date.now();
      assertReplayLink(app.deps, id, request.query, now);
      const sent = await send(request.raw, request.query.file, {
        root: eventFolder(app.deps.config, id),
        index: false,
        dotfiles: 'deny',
        cacheControl: false,
        lastModified: false,
      });
      // Gone (deleted, or replaced by a newer processing): the player asks for the replay again.
      if (sent.type !== 'file' && sent.statusCode !== 416)
        throw new AppError('NOT_FOUND', 'This replay is no longer available');
      const maxAgeS = Math.max(0, Math.floor((request.query.expires - now) / 1000));
      return reply
        .code(sent.statusCode)
        .headers(sent.headers)
        .header('cache-control', `private, max-age=${maxAgeS}`)
        .type('video/webm')
        .send(sent.stream);
    },
  );

  app.delete(
    '/events/:id/replay',
    { preHandler: requireAuth('creator'), schema: { params: ZEventIdParams } },
    async (request, reply) => {
      await deleteReplay(app.deps, signedInAccount(request), request.params.id, isLive);
      return reply.code(204).send();
    },
  );
};
