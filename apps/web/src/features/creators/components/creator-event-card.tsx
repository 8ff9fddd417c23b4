import type { Event } from '@stagedoor/shared/events';
import { imageUrls } from '@stagedoor/shared/images';
import { CalendarDays, Clock } from 'lucide-react';
import { ButtonLink } from '../../../components/ui/button';
import { MediaCard } from '../../../components/ui/media-card';
import { paths } from '../../../config/paths';
import { formatAmount, formatLongDateTime, formatMoney } from '../../../lib/format';
import { useTimeZone } from '../../../lib/use-time-zone';

/** The share of the tickets already sold, as a whole percentage. */
function soldPercent({ maxTickets, ticketsLeft }: Event): number {
  if (maxTickets <= 0) return 0;
  return Math.round(((maxTickets - ticketsLeft) / maxTickets) * 100);
}

/** An event on the public creator profile (spec §2). */
export function CreatorEventCard({ event }: { event: Event }) {
  const sold = soldPercent(event);
  const timeZone = useTimeZone();
  return (
    <MediaCard
      title={event.name}
      headingLevel={3}
      image={{ src: event.image && imageUrls.event(event.image), alt: event.name }}
      actions={
        <ButtonLink to={paths.eventDetails(event.id)} className="w-full">
          {`Buy tickets - $ ${formatAmount(event.price)}`}
        </ButtonLink>
      }
    >
      <p className="line-clamp-3 text-sm text-slate-600">{event.description}</p>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
        <span className="flex items-center gap-1.5">
          <Clock aria-hidden className="size-4 text-brand-600" />
          1h 30min
        </span>
        <span className="flex items-center gap-1.5">
          <CalendarDays aria-hidden className="size-4 text-brand-600" />
          {formatLongDateTime(event.date, timeZone)}
        </span>
      </div>
      <div className="flex items-center justify-between">
        <p className="text-xl font-bold text-slate-900">{formatMoney(event.price)}</p>
        <p className="text-sm text-slate-600">{`${event.ticketsLeft} left`}</p>
      </div>
      <div
        role="progressbar"
        aria-label="Tickets sold"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={sold}
        aria-valuetext={`${sold}% sold`}
        className="h-2 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full rounded-full bg-brand-600" style={{ width: `${sold}%` }} />
      </div>
    </MediaCard>
  );
}
