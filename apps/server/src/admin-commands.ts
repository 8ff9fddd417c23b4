import { REFUND_REASONS, type RefundReason } from '@stagedoor/shared/orders';
import type { App } from './app';
import { refundEvent } from './modules/money/cancellation';
import { markFoundingPartner } from './modules/money/founding-partners';
import { formatMoneyReport, moneyReport } from './modules/money/money-report';

const USAGE = `Operator commands (the server's own configuration; with the embedded database, stop the server first):
  npm run admin -- founding-partner <creator email>            no platform fee on the creator's first event
  npm run admin -- money-report [--since <date>]               the ledger against Stripe, stuck refunds and payouts
                                                               (since 30 days ago unless told; exits 1 on any)
  npm run admin -- refund-event <event id> --reason <${REFUND_REASONS.join('|')}>   refund every buyer of the event in full
  npm run admin -- backup <file>                               copy the embedded database into a file
  npm run admin -- restore <file>                              start an empty DATA_DIR from such a file`;

/** A command line that names no command, or names one wrongly: the usage is the answer. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The money report found something to act on: its text is the message, and the command exits 1. */
export class MoneyReportFindings extends Error {
  override name = 'MoneyReportFindings';
}

const REPORT_DAYS = 30;

/** Runs one operator command against the configured database (and payment provider). */
export async function runAdminCommand(app: App, args: string[]): Promise<string> {
  const [command, ...rest] = args;
  if (command === 'founding-partner' && rest.length === 1 && rest[0]) {
    const creator = await markFoundingPartner(app.deps.db, rest[0]);
    return `${creator.email} is a founding partner: no platform fee on their first event.`;
  }
  if (command === 'refund-event' && rest.length === 3 && rest[1] === '--reason') {
    const eventId = Number(rest[0]);
    const reason = rest[2] as RefundReason;
    if (!Number.isSafeInteger(eventId) || eventId < 1) throw new UsageError(`Not an event id: ${rest[0]}`);
    if (!REFUND_REASONS.includes(reason)) throw new UsageError(`Not a reason: ${rest[2]}`);
    const done = await refundEvent(app.deps, eventId, reason, new Date());
    return `Event ${eventId}: ${done.refundedOrders} order(s) refunded, $${done.refunded.toFixed(2)} in total.`;
  }
  if (command === 'money-report' && (rest.length === 0 || (rest.length === 2 && rest[0] === '--since'))) {
    const since = rest[1] ? new Date(rest[1]) : new Date(Date.now() - REPORT_DAYS * 24 * 3_600_000);
    if (Number.isNaN(since.getTime())) throw new UsageError(`Not a date: ${rest[1]}`);
    const report = await moneyReport(app.deps, since, new Date());
    const text = formatMoneyReport(report);
    if (report.differences.length + report.stuckRefunds.length + report.stuckPayouts.length > 0) {
      throw new MoneyReportFindings(text);
    }
    return text;
  }
  throw new UsageError(USAGE);
}
