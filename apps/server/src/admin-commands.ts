import { REFUND_REASONS, type RefundReason } from './db/schema';
import type { App } from './app';
import { refundEvent } from './modules/money/cancellation';
import { markFoundingPartner } from './modules/money/founding-partners';

const USAGE = `Operator commands (the server's own configuration; with the embedded database, stop the server first):
  npm run admin -- founding-partner <creator email>            no platform fee on the creator's first event
  npm run admin -- refund-event <event id> --reason <${REFUND_REASONS.join('|')}>   refund every buyer of the event in full
  npm run admin -- backup <file>                               copy the embedded database into a file
  npm run admin -- restore <file>                              start an empty DATA_DIR from such a file`;

/** A command line that names no command, or names one wrongly: the usage is the answer. */
export class UsageError extends Error {
  override name = 'UsageError';
}

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
  throw new UsageError(USAGE);
}
