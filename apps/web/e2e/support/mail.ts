import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { expect, inject } from 'vitest';

/**
 * The mail the journeys' server sent. It has no SMTP_URL, so each message is written as an .eml file
 * in DATA_DIR/outbox, named `{time}-{address}.eml` (apps/server/src/modules/mail/transport.ts), by the
 * mail job that runs every MAIL_INTERVAL_MS (2 s by default).
 */

/** How long a queued message may take to reach the outbox: several rounds of the mail job. */
const MAIL_WAIT_MS = 20_000;

async function outboxFiles(): Promise<string[]> {
  try {
    return (await readdir(join(inject('dataDir'), 'outbox'))).sort();
  } catch (error) {
    // No message was written yet: the folder comes with the first.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Every message to `address` in the outbox so far, oldest first. */
export async function mailsTo(address: string): Promise<ParsedMail[]> {
  const suffix = `-${address.replace(/[^\w.@-]/g, '_')}.eml`;
  const names = (await outboxFiles()).filter((name) => name.endsWith(suffix));
  return Promise.all(
    names.map(async (name) => simpleParser(await readFile(join(inject('dataDir'), 'outbox', name)))),
  );
}

/** The newest message of `subject` to `address` in the outbox, if there is one yet. */
async function lastMailTo(address: string, subject: string): Promise<ParsedMail | undefined> {
  return (await mailsTo(address)).findLast((mail) => mail.subject === subject);
}

/** The message of `subject` to `address`, once the server has sent it; the journey fails if it never does. */
export async function mailTo(address: string, subject: string): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        found = await lastMailTo(address, subject);
        return found !== undefined;
      },
      { timeout: MAIL_WAIT_MS, interval: 250, message: `a "${subject}" mail to ${address}` },
    )
    .toBe(true);
  if (!found) throw new Error(`no "${subject}" mail to ${address}`);
  return found;
}

/** The watch link (`{PUBLIC_URL}/watch/{token}`) a message leads to the show with, as its text has it. */
export function watchLinkIn(mail: ParsedMail): string {
  const link = /https?:\/\/[^\s/]+\/watch\/[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
  if (!link) throw new Error(`no watch link in "${mail.subject ?? ''}"`);
  return link;
}
