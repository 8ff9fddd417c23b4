import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '../../config';
import type { RenderedMail } from './messages';

/** Hands one message to the world; throws when it could not (the worker retries). */
export type SendMail = (to: string, mail: RenderedMail, from: string) => Promise<void>;

const SMTP_TIMEOUT_MS = 30_000;

/**
 * SMTP_URL: Nodemailer over SMTP. Unset: each message is written as an .eml file in DATA_DIR/outbox,
 * for a developer to open, and one log line says so.
 */
export function createMailTransport(
  config: Pick<Config, 'smtpUrl' | 'dataDir'>,
  log: FastifyBaseLogger,
): SendMail {
  if (config.smtpUrl) {
    // Nodemailer reads its options from the URL's query too; a send must end well within the worker's lease.
    const url = new URL(config.smtpUrl);
    for (const option of ['connectionTimeout', 'greetingTimeout', 'socketTimeout']) {
      if (!url.searchParams.has(option)) url.searchParams.set(option, String(SMTP_TIMEOUT_MS));
    }
    const transport = nodemailer.createTransport(url.toString());
    return async (to, mail, from) => {
      await transport.sendMail({ from, to, ...mail });
    };
  }
  const folder = path.join(config.dataDir, 'outbox');
  log.info({ folder }, 'SMTP_URL is not set: mail is written as .eml files');
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return async (to, mail, from) => {
    const { message } = (await files.sendMail({ from, to, ...mail })) as { message: Buffer };
    await mkdir(folder, { recursive: true });
    const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${to.replace(/[^\w.@-]/g, '_')}.eml`;
    await writeFile(path.join(folder, name), message);
  };
}
