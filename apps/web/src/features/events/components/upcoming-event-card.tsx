import type { Event } from '@stagedoor/shared/events';
import { imageUrls } from '@stagedoor/shared/images';
import { CalendarDays, Ticket } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { ButtonLink } from '../../../components/ui/button';
import { MediaCard } from '../../../components/ui/media-card';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { formatMoney, formatShortDateTime } from '../../../lib/format';
import { useTimeZone } from '../../../lib/use-time-zone';

/** A card of the Upcoming Events grid (spec §2). */
export function UpcomingEventCard({ event }: { event: Event }) {
  const { creator } = event;
  const timeZone = useTimeZone();
  return (
    <MediaCard
      title={event.name}
      image={{ src: event.image && imageUrls.event(event.image), alt: event.name }}
      badge={<Badge>Active</Badge>}
      actions={
        <ButtonLink to={paths.eventDetails(event.id)} className="w-full">
          Get Your Tickets
        </ButtonLink>
      }
    >
      <p className="line-clamp-3 text-sm text-slate-600">{event.description}</p>
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <CalendarDays aria-hidden className="size-4 text-brand-600" />
        {formatShortDateTime(event.date, timeZone)}
      </p>
      <div className="flex items-center justify-between gap-3">
        <p className="text-xl font-bold text-slate-900">{formatMoney(event.price)}</p>
        <p className="flex items-center gap-1.5 text-sm text-slate-600">
          <Ticket aria-hidden className="size-4" />
          {`${event.ticketsLeft} tickets left`}
        </p>
      </div>
      <p className="text-sm text-slate-600">
        By{' '}
        <TextLink to={paths.creatorProfile(creator.nickname)}>
          {`${creator.firstName} ${creator.lastName}`}
        </TextLink>
      </p>
    </MediaCard>
  );
}
