import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors';
import { isRemindersOffSignature } from './worker';

const ZRemindersOff = z.object({
  account: z.coerce.number().int().positive(),
  signature: z.string().min(1).max(100),
});

const page = (message: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>Stagedoor reminders</title></head><body style="font-family:Helvetica,Arial,sans-serif;max-width:480px;margin:48px auto;padding:0 16px">` +
  `${message}</body></html>`;

/**
 * The link in every reminder: GET shows a button (mail scanners follow links, and must not turn anything
 * off), POST turns the account's reminders off. The signature is an HMAC of the account id.
 */
export const mailRoutes: FastifyPluginAsyncZod<{
  /** The accounts module's change (handed in by app.ts: accounts sends mail, so mail cannot import it). */
  turnRemindersOff: (accountId: number) => Promise<void>;
}> = async (app, { turnRemindersOff }) => {
  const checked = (query: z.infer<typeof ZRemindersOff>) => {
    if (!isRemindersOffSignature(app.deps, query.account, query.signature)) {
      throw new AppError('FORBIDDEN', 'This link is not valid');
    }
    return query.account;
  };

  app.get('/mail/reminders-off', { schema: { querystring: ZRemindersOff } }, async (request, reply) => {
    checked(request.query);
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page(
          `<h1>Turn off reminders?</h1><p>You will still get your receipts and refunds.</p>` +
            `<form method="post"><button type="submit">Turn reminders off</button></form>`,
        ),
      );
  });

  app.post('/mail/reminders-off', { schema: { querystring: ZRemindersOff } }, async (request, reply) => {
    const accountId = checked(request.query);
    await turnRemindersOff(accountId);
    return reply
      .type('text/html; charset=utf-8')
      .send(
        page('<h1>Reminders are off</h1><p>You will not get show reminders from Stagedoor any more.</p>'),
      );
  });
};
