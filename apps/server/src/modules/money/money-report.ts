import { formatDollars } from '@stagedoor/shared/money';
import { and, eq, gte, inArray, isNotNull, lt, or } from 'drizzle-orm';
import { ordersView as orders } from '../orders/orders.views';
import { payouts, strayPayments } from './money.tables';
import type { Deps } from '../../deps';
import { unbalancedMovements } from '../ledger/ledger';
import type { ProviderTransaction } from '../payments/payments';

type ReportDeps = Pick<Deps, 'db' | 'payments'>;

const DAY_MS = 24 * 3_600_000;
/**
 * A refund still pending this long waits on more than Stripe's processing (the balance cannot cover it,
 * say); a payout still due this long waits on more than card funds becoming available (two days).
 */
const STUCK_REFUND_MS = 2 * DAY_MS;
const STUCK_PAYOUT_MS = 3 * DAY_MS;
/** Stripe's records of a payment may come a little before ours (a webhook's delay): read from earlier. */
const PROVIDER_LEAD_MS = DAY_MS;

/**
 * The kinds of balance transaction the ledger books. Others (the platform's own payouts to its bank,
 * Stripe's billing) are the platform's business, not the Terms'.
 */
const RECONCILED_TYPES = ['charge', 'refund', 'refund_failure', 'transfer', 'adjustment'];

interface MoneyReport {
  since: Date;
  /** Whether a payment provider was there to compare with (PAYMENT_PROVIDER=stripe). */
  compared: boolean;
  /** The ledger against the provider: each a sentence naming both sides; none after a clean run. */
  differences: string[];
  /** Refunds failed, or pending too long: the fans are owed this money. */
  stuckRefunds: string[];
  /** Payouts due too long: the creators are owed this money. */
  stuckPayouts: string[];
  /** Cents by kind of balance transaction (charge, refund, transfer, adjustment): the ledger's, Stripe's. */
  totals: Map<string, { ledger: number; stripe: number }>;
}

/**
 * `npm run admin -- money-report [--since <date>]` and the money gauges of /metrics. The ledger's
 * movements must balance; then every payment, refund, transfer and dispute recorded since `since` is
 * looked for among the provider's balance transactions, object by object, and every balance transaction
 * of the provider since then among our records: a difference either way is named. Last, the refunds
 * and payouts that are stuck. Payments recorded before orders kept their charge (chargeId) are not
 * compared.
 */
export async function moneyReport(deps: ReportDeps, since: Date, now: Date): Promise<MoneyReport> {
  const differences = (await unbalancedMovements(deps.db)).map(
    (key) => `Ledger movement ${key} does not balance`,
  );
  const totals = new Map<string, { ledger: number; stripe: number }>();
  const report = {
    since,
    compared: deps.payments !== null,
    differences,
    stuckRefunds: await stuckRefunds(deps, now),
    stuckPayouts: await stuckPayouts(deps, now),
    totals,
  };
  const addTo = (type: string, side: 'ledger' | 'stripe', cents: number) => {
    const total = totals.get(type) ?? { ledger: 0, stripe: 0 };
    total[side] += cents;
    totals.set(type, total);
  };
  if (!deps.payments) return report;

  const provider = new ProviderLedger();
  for await (const transaction of deps.payments.balanceTransactions(
    new Date(since.getTime() - PROVIDER_LEAD_MS),
  )) {
    provider.add(transaction);
  }
  for (const failed of await failedRefundsSince(deps, since)) {
    // Money a failed refund took came back: either neither shows at Stripe, or both do.
    const out = provider.take('refund', failed.id);
    const back = provider.take('refund_failure', failed.id);
    if (out && !back)
      differences.push(
        `Failed refund of order ${failed.orderId}: it left the balance at Stripe and never came back`,
      );
  }
  for (const expected of await expectedSince(deps, since)) {
    addTo(expected.type, 'ledger', expected.amountCents);
    const found = provider.take(expected.type, expected.source);
    if (!found) {
      differences.push(
        `${expected.what}: ${formatDollars(expected.amountCents)} in the ledger, no ${expected.type} ${expected.source} at Stripe`,
      );
    } else if (found.amountCents !== expected.amountCents) {
      differences.push(
        `${expected.what}: ${formatDollars(expected.amountCents)} in the ledger, ${formatDollars(found.amountCents)} at Stripe (${expected.source})`,
      );
    } else if (expected.feeCents !== undefined && found.feeCents !== expected.feeCents) {
      differences.push(
        `${expected.what}: fee ${formatDollars(expected.feeCents)} in the ledger, ${formatDollars(found.feeCents)} at Stripe (${expected.source})`,
      );
    }
  }
  for (const transaction of provider.allSince(since))
    addTo(transaction.type, 'stripe', transaction.amountCents);
  const unmatched = provider.leftSince(since);
  const known = await knownSources(
    deps,
    unmatched.map((transaction) => transaction.source ?? ''),
  );
  for (const left of unmatched) {
    if (left.source && known.has(left.source)) continue;
    differences.push(
      `Stripe ${left.type} ${left.source ?? left.id} of ${formatDollars(left.amountCents)} (${left.created.toISOString()}) is not in the ledger`,
    );
  }
  return report;
}

/** The provider's balance transactions, by kind and source object, taken off as they are matched. */
class ProviderLedger {
  private readonly bySource = new Map<string, ProviderTransaction[]>();

  add(transaction: ProviderTransaction): void {
    if (!RECONCILED_TYPES.includes(transaction.type)) return;
    const key = `${transaction.type}:${transaction.source}`;
    this.bySource.set(key, [...(this.bySource.get(key) ?? []), transaction]);
    this.all.push(transaction);
  }

  private readonly all: ProviderTransaction[] = [];

  take(type: string, source: string): ProviderTransaction | undefined {
    return this.bySource.get(`${type}:${source}`)?.shift();
  }

  allSince(since: Date): ProviderTransaction[] {
    return this.all.filter((transaction) => transaction.created >= since);
  }

  leftSince(since: Date): ProviderTransaction[] {
    return [...this.bySource.values()].flat().filter((transaction) => transaction.created >= since);
  }
}

interface Expected {
  what: string;
  type: string;
  source: string;
  amountCents: number;
  feeCents?: number;
}

/** What our records say the provider's balance shows, for every payment and payout since `since`. */
async function expectedSince(deps: ReportDeps, since: Date): Promise<Expected[]> {
  const expected: Expected[] = [];
  const paid = await deps.db
    .select()
    .from(orders)
    .where(
      and(isNotNull(orders.chargeId), or(gte(orders.completedAt, since), gte(orders.refundedAt, since))),
    );
  for (const order of paid) {
    const what = `Order ${order.id}`;
    if (!order.chargeId) continue;
    if (order.completedAt && order.completedAt >= since) {
      expected.push({
        what,
        type: 'charge',
        source: order.chargeId,
        amountCents: order.totalCents,
        feeCents: order.processorFeeCents,
      });
    }
    if (order.providerRefundId && order.refundStatus === 'succeeded') {
      expected.push({
        what: `Refund of order ${order.id}`,
        type: 'refund',
        source: order.providerRefundId,
        amountCents: -order.totalCents,
      });
    }
    if (order.disputeId) {
      const dispute = { what: `Dispute of order ${order.id}`, type: 'adjustment', source: order.disputeId };
      expected.push({ ...dispute, amountCents: -order.totalCents });
      if (order.disputeStatus === 'won') expected.push({ ...dispute, amountCents: order.totalCents });
    }
  }
  const strays = await deps.db.select().from(strayPayments).where(gte(strayPayments.createdAt, since));
  for (const stray of strays) {
    const what = `Stray payment ${stray.paymentId}`;
    if (stray.chargeId) {
      expected.push({
        what,
        type: 'charge',
        source: stray.chargeId,
        amountCents: stray.amountCents,
        feeCents: stray.processorFeeCents,
      });
    }
    if (stray.providerRefundId && stray.refundStatus === 'succeeded') {
      expected.push({
        what: `Refund of ${what}`,
        type: 'refund',
        source: stray.providerRefundId,
        amountCents: -stray.amountCents,
      });
    }
  }
  const transferred = await deps.db
    .select()
    .from(payouts)
    .where(and(isNotNull(payouts.transferId), gte(payouts.transferredAt, since)));
  for (const payout of transferred) {
    if (!payout.transferId) continue;
    expected.push({
      what: `Payout ${payout.id}`,
      type: 'transfer',
      source: payout.transferId,
      amountCents: -payout.amountCents,
    });
  }
  return expected;
}

/** Refunds Stripe failed, of orders refunded since `since`. */
async function failedRefundsSince(deps: ReportDeps, since: Date): Promise<{ id: string; orderId: number }[]> {
  const rows = await deps.db
    .select({ id: orders.providerRefundId, orderId: orders.id })
    .from(orders)
    .where(
      and(
        eq(orders.refundStatus, 'failed'),
        isNotNull(orders.providerRefundId),
        gte(orders.refundedAt, since),
      ),
    );
  return rows.flatMap(({ id, orderId }) => (id ? [{ id, orderId }] : []));
}

/** Which of these provider objects our records name, whenever they were made. */
async function knownSources(deps: ReportDeps, sources: string[]): Promise<Set<string>> {
  const ids = sources.filter(Boolean);
  if (ids.length === 0) return new Set();
  const fromOrders = await deps.db
    .select({ chargeId: orders.chargeId, refundId: orders.providerRefundId, disputeId: orders.disputeId })
    .from(orders)
    .where(
      or(
        inArray(orders.chargeId, ids),
        inArray(orders.providerRefundId, ids),
        inArray(orders.disputeId, ids),
      ),
    );
  const fromStrays = await deps.db
    .select({ chargeId: strayPayments.chargeId, refundId: strayPayments.providerRefundId })
    .from(strayPayments)
    .where(or(inArray(strayPayments.chargeId, ids), inArray(strayPayments.providerRefundId, ids)));
  const fromPayouts = await deps.db
    .select({ transferId: payouts.transferId })
    .from(payouts)
    .where(inArray(payouts.transferId, ids));
  return new Set(
    [...fromOrders, ...fromStrays, ...fromPayouts]
      .flatMap((row) => Object.values(row))
      .filter((id) => id !== null),
  );
}

async function stuckRefunds(deps: ReportDeps, now: Date): Promise<string[]> {
  const rows = await deps.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.status, 'refunded'),
        or(
          eq(orders.refundStatus, 'failed'),
          and(
            eq(orders.refundStatus, 'pending'),
            lt(orders.refundedAt, new Date(now.getTime() - STUCK_REFUND_MS)),
          ),
        ),
      ),
    );
  return rows.map((order) =>
    order.refundStatus === 'failed'
      ? `Refund of order ${order.id} (${formatDollars(order.totalCents)}) failed: ${order.refundFailure ?? 'no reason given'}; the fan must be paid another way`
      : `Refund of order ${order.id} (${formatDollars(order.totalCents)}) pending since ${order.refundedAt?.toISOString()}`,
  );
}

async function stuckPayouts(deps: ReportDeps, now: Date): Promise<string[]> {
  if (!deps.payments) return [];
  const rows = await deps.db
    .select()
    .from(payouts)
    .where(and(eq(payouts.status, 'due'), lt(payouts.createdAt, new Date(now.getTime() - STUCK_PAYOUT_MS))));
  return rows.map(
    (payout) =>
      `Payout ${payout.id} (${formatDollars(payout.amountCents)}) to creator ${payout.creatorId} due since ${payout.createdAt.toISOString()}, ${payout.attempts} tries`,
  );
}

/** The report as the operator reads it. */
export function formatMoneyReport(report: MoneyReport): string {
  const section = (title: string, lines: string[]) =>
    lines.length === 0
      ? [`${title}: none`]
      : [`${title} (${lines.length}):`, ...lines.map((line) => `  - ${line}`)];
  const totals = [...report.totals].map(
    ([type, total]) =>
      `  ${type}: ${formatDollars(total.ledger)} in the ledger, ${formatDollars(total.stripe)} at Stripe`,
  );
  return [
    `Money since ${report.since.toISOString()}`,
    ...(report.compared
      ? totals
      : ['  No payment provider (PAYMENT_PROVIDER=none): only the ledger itself is checked']),
    ...section('Differences between the ledger and Stripe', report.differences),
    ...section('Refunds failed or stuck', report.stuckRefunds),
    ...section('Payouts stuck', report.stuckPayouts),
  ].join('\n');
}

/** How far back, and how often, the report is made for /metrics: it reads all of Stripe's balance since. */
const GAUGE_WINDOW_MS = 7 * DAY_MS;
const GAUGE_REFRESH_MS = 15 * 60_000;

interface MoneyCounts {
  differences: number;
  stuckRefunds: number;
  stuckPayouts: number;
}

/**
 * The report's counts for the /metrics gauges, over the last week, made again at most every quarter of
 * an hour however often Prometheus scrapes (each one reads Stripe): an alert on a difference fires
 * within that.
 */
export function moneyCounts(deps: ReportDeps): () => Promise<MoneyCounts> {
  let last: { at: number; counts: Promise<MoneyCounts> } | null = null;
  return () => {
    const now = Date.now();
    if (!last || now - last.at >= GAUGE_REFRESH_MS) {
      const counts = moneyReport(deps, new Date(now - GAUGE_WINDOW_MS), new Date(now)).then((report) => ({
        differences: report.differences.length,
        stuckRefunds: report.stuckRefunds.length,
        stuckPayouts: report.stuckPayouts.length,
      }));
      // A failed report is tried again at the next scrape, not kept for a quarter of an hour.
      counts.catch(() => {
        last = null;
      });
      last = { at: now, counts };
    }
    return last.counts;
  };
}
