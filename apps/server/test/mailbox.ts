import type { ParsedMail } from 'mailparser';
import { afterAll, beforeEach } from 'vitest';
import type { App } from '../src/app';
import { runMail } from '../src/modules/orders/reminders';
import { startSmtpServer } from './smtp-server';
import { createTestApp } from './test-app';

/**
 * An app whose mail goes to a real SMTP server of the test's, sent when the test runs the mail job (the
 * worker's own timer never fires); each test starts with an empty mailbox.
 */
export async function appWithMailbox(): Promise<{
  app: App;
  /** The last message of `subject` to the address, once the mail job has run. */
  mailTo: (address: string, subject: string) => Promise<ParsedMail>;
}> {
  const smtp = await startSmtpServer();
  const app = await createTestApp({ SMTP_URL: smtp.url, MAIL_INTERVAL_MS: '2147483647' });
  afterAll(async () => {
    await app.close();
    await smtp.close();
  });
  beforeEach(async () => {
    await runMail(app.deps, new Date());
    smtp.received.length = 0;
  });
  const mailTo = async (address: string, subject: string) => {
    await runMail(app.deps, new Date());
    const mail = smtp.received.findLast(
      (message) => message.subject === subject && !Array.isArray(message.to) && message.to?.text === address,
    );
    if (!mail) throw new Error(`no "${subject}" to ${address}`);
    return mail;
  };
  return { app, mailTo };
}

/** The token of the watch link (`/watch/{token}`) in a message's text. */
export function watchTokenIn(mail: ParsedMail): string {
  const token = /\/watch\/([A-Za-z0-9_-]+)/.exec(mail.text ?? '')?.[1];
  if (!token) throw new Error(`no watch link in "${mail.subject ?? ''}"`);
  return token;
}
