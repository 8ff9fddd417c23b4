import type { Order, OrderStatus } from '@stagedoor/shared/orders';
import { shownTicketType } from '@stagedoor/shared/events';
import { imageUrls } from '@stagedoor/shared/images';
import { phaseOf } from '@stagedoor/shared/event-state';
import { counted } from '@stagedoor/shared/words';
import { BadgePercent, CalendarDays, Clock, Euro, Gift, History, Hourglass, Ticket } from 'lucide-react';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { ButtonAnchor, ButtonLink } from '../../../components/ui/button';
import { MediaCard } from '../../../components/ui/media-card';
import { paths } from '../../../config/paths';
import { formatAmount, formatDeadline, formatMoney, formatShortDate, formatTime } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { useTimeZone } from '../../../lib/use-time-zone';
import { GiveTickets } from './give-tickets';

/** The badge of each order status; 'Completed' is the spec's (§2). */
const statusBadges: Record<OrderStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending payment', tone: 'warning' },
  completed: { label: 'Completed', tone: 'success' },
  expired: { label: 'Expired', tone: 'neutral' },
  refunded: { label: 'Refunded', tone: 'neutral' },
  disputed: { label: 'Disputed', tone: 'danger' },
};

/** A refund is only "Refunded" once the money was sent back; until then, or if sending failed, it is pending. */
const REFUND_PENDING = { label: 'Refund pending', tone: 'warning' } as const;

/** A pending order without a hold end: its bank payment is clearing, its tickets are kept meanwhile. */
const PAYMENT_CLEARING = { label: 'Payment processing', tone: 'warning' } as const;

/**
 * A pending order with a hold end and no checkout of its own: tickets held for the fan, their turn on
 * the event's waitlist. They buy them on the event's page.
 */
const isHeldForFan = (order: Order) =>
  order.status === 'pending' && order.expiresAt !== null && order.checkoutUrl === null;

const HELD_FOR_FAN = { label: 'Held for you', tone: 'warning' } as const;

/** Tickets the account gave away: no longer its own. */
const GIVEN_AWAY = { label: 'Given away', tone: 'neutral' } as const;

function badgeOf(order: Order) {
  if (order.givenTo !== null) return GIVEN_AWAY;
  if (order.status === 'refunded' && order.refundStatus !== 'succeeded') return REFUND_PENDING;
  if (order.status === 'pending' && order.expiresAt === null) return PAYMENT_CLEARING;
  if (isHeldForFan(order)) return HELD_FOR_FAN;
  return statusBadges[order.status];
}

/**
 * One order on My Tickets, badged with its status, with its ticket type (unless the event's one) and its
 * promo code; amounts carry a euro icon (spec §9), a free order says Free. Only a
 * completed order of the account's own is a ticket to the stream (and to its replay, once one is
 * ready), and can be given before its show; a pending one can still be paid, and tickets held for the
 * fan (their turn on a waitlist) bought on the event's page.
 */
export function TicketCard({ order }: { order: Order }) {
  const { event } = order;
  const badge = badgeOf(order);
  const timeZone = useTimeZone();
  // Whether it can still be given changes at the show's start: a minute's precision is plenty.
  const now = useNow(60_000);
  const isTicket = order.status === 'completed' && order.givenTo === null;
  const isGivable = isTicket && phaseOf(event.date, now) === 'upcoming';
  const typeName = shownTicketType(order.ticketType);
  const heldUntil = isHeldForFan(order) ? order.expiresAt : null;
  return (
    <MediaCard
      title={event.name}
      image={{ src: event.image && imageUrls.event(event.image), alt: event.name }}
      badge={<Badge tone={badge.tone}>{badge.label}</Badge>}
      actions={
        <>
          <ButtonLink to={paths.eventDetails(event.id)} variant="secondary" size="sm">
            Ver Detalles
          </ButtonLink>
          {isTicket ? (
            <ButtonLink to={paths.eventStream(event.id)} size="sm">
              Acceder al Stream
            </ButtonLink>
          ) : null}
          {isTicket && event.hasReplay ? (
            <ButtonLink to={paths.eventStream(event.id)} variant="secondary" size="sm">
              <History aria-hidden className="size-4" />
              Watch the replay
            </ButtonLink>
          ) : null}
          {isGivable ? <GiveTickets order={order} /> : null}
          {order.status === 'pending' && order.checkoutUrl ? (
            <ButtonAnchor href={order.checkoutUrl} size="sm">
              Finish payment
            </ButtonAnchor>
          ) : null}
          {heldUntil ? (
            <ButtonLink to={paths.eventDetails(event.id)} size="sm">
              Buy now
            </ButtonLink>
          ) : null}
        </>
      }
    >
      <ul className="space-y-1.5 text-sm text-slate-700">
        <li className="flex items-center gap-2">
          <CalendarDays aria-hidden className="size-4 text-brand-600" />
          {formatShortDate(event.date, timeZone)}
        </li>
        <li className="flex items-center gap-2">
          <Clock aria-hidden className="size-4 text-brand-600" />
          {formatTime(event.date, timeZone)}
        </li>
        <li className="flex items-center gap-2">
          <Ticket aria-hidden className="size-4 text-brand-600" />
          {[counted(order.quantity, 'ticket'), typeName].filter(Boolean).join(' · ')}
        </li>
        {heldUntil ? (
          <li className="flex items-center gap-2 font-medium text-amber-800">
            <Hourglass aria-hidden className="size-4" />
            {`Held for you until ${formatDeadline(heldUntil, timeZone, now)}`}
          </li>
        ) : null}
        {order.promoCode !== null ? (
          <li className="flex items-center gap-2">
            <BadgePercent aria-hidden className="size-4 text-brand-600" />
            {`Promo code ${order.promoCode}: ${formatMoney(-order.discount)}`}
          </li>
        ) : null}
        {order.givenTo !== null ? (
          <li className="flex items-center gap-2">
            <Gift aria-hidden className="size-4 text-brand-600" />
            Given to {order.givenTo}
          </li>
        ) : null}
        {order.giftFrom !== null ? (
          <li className="flex items-center gap-2">
            <Gift aria-hidden className="size-4 text-brand-600" />A gift from {order.giftFrom}
          </li>
        ) : null}
      </ul>
      <p className="flex items-center gap-1 text-xl font-bold text-slate-900">
        {order.totalAmount === 0 ? (
          'Free'
        ) : (
          <>
            <Euro role="img" aria-label="Total in euros" className="size-5" />
            {formatAmount(order.totalAmount)}
          </>
        )}
      </p>
    </MediaCard>
  );
}
