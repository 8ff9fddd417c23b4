import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

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
