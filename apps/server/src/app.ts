import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config';
import { createDatabase } from './db/database';
import type { Deps } from './deps';
import { authRoutes } from './modules/auth/auth.routes';
import { healthRoutes } from './modules/health/health.routes';
import { createImageStore } from './modules/images/image-store';
import { imageRoutes } from './modules/images/images.routes';
import { userRoutes } from './modules/users/users.routes';
import { setupAuth } from './plugins/auth';
import { setupErrorHandler } from './plugins/error-handler';
import { setupMultipart } from './plugins/multipart';
import { setupRateLimit } from './plugins/rate-limit';
import { setupSecurity } from './plugins/security';
import { setupWebApp } from './plugins/web-app';

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}

// An id a proxy or client sent is kept (so logs can be joined across systems) if it looks like one.
const INCOMING_REQUEST_ID = /^[\w.:-]{1,128}$/;

export type App = FastifyInstance;

/** The whole server, ready to listen: production and every test build it through here. */
export async function buildApp(config: Config): Promise<App> {
  const app = Fastify({
    logger: { level: config.logLevel },
    requestIdHeader: false,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && INCOMING_REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  }).withTypeProvider<ZodTypeProvider>();

  const database = await createDatabase(config.database);
  app.addHook('onClose', () => database.close());
  try {
    app.decorate('deps', {
      config,
      db: database.db,
      images: createImageStore(config, database.db),
      log: app.log,
    });

    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    // A missing body is validated as an empty one, so the answer lists each required field.
    app.addHook('preValidation', async (request) => {
      if (request.body === undefined && request.routeOptions.schema?.body) request.body = {};
    });
    app.addHook('onRequest', async (request, reply) => {
      reply.header('x-request-id', request.id);
    });

    setupErrorHandler(app);
    await setupSecurity(app, config.publicOrigin);
    await setupRateLimit(app);
    await setupMultipart(app);
    setupAuth(app);

    await app.register(
      async (api) => {
        await api.register(healthRoutes);
        await api.register(authRoutes);
        await api.register(userRoutes);
        await api.register(imageRoutes);
      },
      { prefix: '/api' },
    );
    await setupWebApp(app, config.webDistDir);

    await app.ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  return app;
}
