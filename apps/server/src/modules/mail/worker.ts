import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import { outbox } from './mail.tables';
import type { Deps } from '../../deps';
import { publicUrlOf } from '../../site';
import { renderMail, type MailLinks } from './messages';
import { SECRET_FACTS, type MailKind } from './outbox';

/** How long a worker may take to send what it claimed before another may try it. */
const LEASE_MS = 5 * 60_000;
/** Tries before a message is given up as failed; waits grow 30 s, 1, 2, 4 … minutes. */
const MAX_ATTEMPTS = 8;
const BACKOFF_BASE_MS = 30_000;
const BATCH = 20;

type MailDeps = Pick<Deps, 'db' | 'config' | 'log' | 'sendMail'>;

/**
 * Sends what is due. Rows are claimed with FOR UPDATE SKIP LOCKED and leased (next_attempt_at pushed
 * LEASE_MS ahead) in one short statement, so two workers never take the same row; a worker that dies
 * mid-send leaves the row to be taken again when the lease runs out: nothing is lost. A failed send is
 * tried again later, waiting twice as long each time. Answers how many went out.
 */
export async function sendDueMail(deps: MailDeps, now: Date): Promise<number> {
  const claimed = await deps.db
    .update(outbox)
    .set({ nextAttemptAt: new Date(now.getTime() + LEASE_MS), attempts: sql`${outbox.attempts} + 1` })
    .where(
      inArray(
        outbox.id,
        deps.db
          .select({ id: outbox.id })
          .from(outbox)
          .where(and(eq(outbox.status, 'queued'), lte(outbox.nextAttemptAt, now)))
          .orderBy(asc(outbox.id))
          .limit(BATCH)
          .for('update', { skipLocked: true }),
      ),
    )
    .returning();
  const links = mailLinks(deps);
  let sent = 0;
  for (const row of claimed) {
    try {
      await deps.sendMail(
        row.toAddress,
        renderMail(row.kind as MailKind, row.data, links),
        deps.config.mailFrom,
      );
      // A link that signs someone in (a reset, a watch link) is not kept once it is on its way.
      const data = Object.fromEntries(
        Object.entries(row.data).filter(([fact]) => !(SECRET_FACTS as readonly string[]).includes(fact)),
      );
      await deps.db
        .update(outbox)
        .set({ status: 'sent', sentAt: new Date(), data })
        .where(eq(outbox.id, row.id));
      sent += 1;
    } catch (error) {
      const failed = row.attempts >= MAX_ATTEMPTS;
      deps.log.warn(
        { err: error, mailId: row.id, attempt: row.attempts },
        failed ? 'mail given up' : 'mail not sent; retrying',
      );
      await deps.db
        .update(outbox)
        .set({
          status: failed ? 'failed' : 'queued',
          lastError: error instanceof Error ? error.message : String(error),
          nextAttemptAt: new Date(now.getTime() + BACKOFF_BASE_MS * 2 ** (row.attempts - 1)),
        })
        .where(eq(outbox.id, row.id));
    }
  }
  return sent;
}

/** Links in mail: the site, and the signed link that turns an account's reminders off. */
export function mailLinks(deps: Pick<Deps, 'config'>): MailLinks {
  const siteUrl = publicUrlOf(deps.config);
  return {
    siteUrl,
    remindersOff: (accountId) =>
      `${siteUrl}/api/mail/reminders-off?account=${accountId}&signature=${remindersOffSignature(deps, accountId)}`,
  };
}

export function remindersOffSignature(deps: Pick<Deps, 'config'>, accountId: number): string {
  return createHmac('sha256', deps.config.jwtSecret).update(`reminders-off:${accountId}`).digest('base64url');
}

export function isRemindersOffSignature(
  deps: Pick<Deps, 'config'>,
  accountId: number,
  signature: string,
): boolean {
  const expected = Buffer.from(remindersOffSignature(deps, accountId));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
