import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '@stagedoor/shared/errors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/database';
import { AppError, validationFailed } from '../errors';

const CODE_BY_STATUS = new Map(
  Object.entries(ERROR_STATUS).map(([code, status]) => [status as number, code as ErrorCode]),
);

const SHUTTING_DOWN_MESSAGE = 'The server is restarting. Please try again in a moment.';

/**
 * Every error leaves as `{statusCode, code, message, fields?}`; 5xx details stay in the log. A request
 * read once the server has begun to close (one pipelined or kept alive behind a request under way) is
 * answered 503 in that body too, and its connection closed, where Fastify would answer its own.
 */
export function setupErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler<FastifyError | AppError>(answerError);
  let isClosing = false;
  app.addHook('preClose', async () => {
    isClosing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!isClosing) return;
    reply.header('connection', 'close');
    throw new AppError('SERVICE_UNAVAILABLE', SHUTTING_DOWN_MESSAGE);
  });
}

/**
 * The answer to an error; also Fastify's `frameworkErrors` option, for what fails before any route is
 * chosen (a URL that cannot be decoded), so that too leaves in the product's error body.
 */
export function answerError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (clientWentAway(error, request)) {
    // A closed tab, a phone out of signal: nobody is left to answer, and nothing here failed.
    request.log.info({ code: error.code }, 'client closed the connection mid-request');
    return reply.code(400).send();
  }
  const body = toErrorBody(toAppError(error));
  if (body.statusCode >= 500) request.log.error({ err: error }, 'request failed');
  // Written as it is: the route's answer schema for this status (GET /api/health's 503) is not its shape.
  return reply
    .code(body.statusCode)
    .type('application/json; charset=utf-8')
    .serializer(JSON.stringify)
    .send(body);
}

/** Whether reading the request failed because its client closed the connection before it was whole. */
function clientWentAway(error: FastifyError | AppError, request: FastifyRequest): boolean {
  return request.raw.socket.destroyed && (error.code === 'ECONNRESET' || error.code === 'ECONNABORTED');
}

function toAppError(error: FastifyError | AppError): AppError {
  if (error instanceof AppError) return error;
  // PostgreSQL down, restarting or out of reach: a moment's outage the client may retry, not a bug.
  if (isDatabaseUnavailable(error)) return new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE);

  if (hasZodFastifySchemaValidationErrors(error)) {
    return validationFailed(
      error.validation.map((issue) => ({
        field: issue.instancePath.slice(1).replaceAll('/', '.') || error.validationContext || 'request',
        message: issue.message ?? 'Invalid value',
      })),
    );
  }

  // Raised by Fastify or a plugin: malformed JSON, an unsupported content type, a body too large…
  const status = error.statusCode ?? 500;
  if (status >= 500) return new AppError('INTERNAL', 'Internal server error');
  return new AppError(CODE_BY_STATUS.get(status) ?? 'VALIDATION_FAILED', error.message);
}

function toErrorBody(error: AppError): ErrorBody {
  const body: ErrorBody = { statusCode: error.statusCode, code: error.code, message: error.message };
  if (error.fields) body.fields = error.fields;
  return body;
}
