import type { Order } from '@stagedoor/shared/orders';
import { CalendarDays, Clock, Euro, Ticket } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { ButtonLink } from '../../../components/ui/button';
import { MediaCard } from '../../../components/ui/media-card';
import { paths } from '../../../config/paths';
import { formatAmount, formatShortDate, formatTime } from '../../../lib/format';
import { imageUrls } from '../../../lib/images';

/** One order on My Tickets. Every order reads 'Completed' (spec §4); amounts carry a euro icon (spec §9). */
export function TicketCard({ order }: { order: Order }) {
  const { event } = order;
  return (
    <MediaCard
      title={event.name}
      image={{ src: event.image && imageUrls.event(event.image), alt: event.name }}
      badge={<Badge>Completed</Badge>}
      actions={
        <>
          <ButtonLink to={paths.eventDetails(event.id)} variant="secondary" size="sm">
            Ver Detalles
          </ButtonLink>
          <ButtonLink to={paths.eventStream(event.id)} size="sm">
            Acceder al Stream
          </ButtonLink>
        </>
      }
    >
      <ul className="space-y-1.5 text-sm text-slate-700">
        <li className="flex items-center gap-2">
          <CalendarDays aria-hidden className="size-4 text-brand-600" />
          {formatShortDate(event.date)}
        </li>
        <li className="flex items-center gap-2">
          <Clock aria-hidden className="size-4 text-brand-600" />
          {formatTime(event.date)}
        </li>
        <li className="flex items-center gap-2">
          <Ticket aria-hidden className="size-4 text-brand-600" />
          {`${order.quantity} ticket(s)`}
        </li>
      </ul>
      <p className="flex items-center gap-1 text-xl font-bold text-slate-900">
        <Euro role="img" aria-label="Total in euros" className="size-5" />
        {formatAmount(order.totalAmount)}
      </p>
    </MediaCard>
  );
}
