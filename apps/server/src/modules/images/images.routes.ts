import { IMAGE_FOLDERS } from '@stagedoor/shared/images';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import { isImageName } from './image-names';

// Names are never reused (a new upload gets a new name), so a browser may keep an image forever.
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Every image path of the API; they all read the same store. */
const IMAGE_ROUTES = Object.values(IMAGE_FOLDERS).map((folder) => `/${folder}/:file`);

export const imageRoutes: FastifyPluginAsyncZod = async (app) => {
  for (const url of IMAGE_ROUTES) {
    app.get(url, { schema: { params: z.object({ file: z.string() }) } }, async (request, reply) => {
      const { file } = request.params;
      const image = isImageName(file) ? await app.deps.images.get(file) : null;
      if (!image) throw new AppError('NOT_FOUND', 'Image not found');
      return reply.header('content-type', image.mime).header('cache-control', IMMUTABLE).send(image.data);
    });
  }
};
