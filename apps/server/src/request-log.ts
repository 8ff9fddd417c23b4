import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Query parameters whose value lets its holder in: a reset link's token, the reminders-off signature. */
const SECRET_PARAMETERS = /([?&](?:token|signature)=)[^&#]*/gi;
/** Paths whose last part is a secret: a watch link, /watch/{token}. */
const SECRET_PATHS = /^(\/watch\/)[^/?#]+/;
const REDACTED = '[redacted]';

/** `url` as the log keeps it: the secrets a link carries replaced by [redacted]. */
function redactedUrl(url: string): string {
  return url.replace(SECRET_PATHS, `$1${REDACTED}`).replace(SECRET_PARAMETERS, `$1${REDACTED}`);
}

/**
 * How every logged request (`{req}`) is written: Fastify's fields, the URL without the secrets links
 * carry, so an access log or an error report never holds a way into someone's account.
 */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket.remotePort,
  };
}

/**
 * Development's request log (decision 0027): "incoming request" and "request completed" at debug, so a
 * page load's dozens of requests do not scroll the start banner (URL, demo logins) away. LOG_LEVEL=debug
 * shows them; a request that errored is still logged at error.
 */
export class DevelopmentRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (this.isLogDisabled(request)) return;
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
