import type { Event } from '@stagedoor/shared/events';
import { imageUrls } from '@stagedoor/shared/images';
import { CalendarDays, Trash2 } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { Button, ButtonLink } from '../../../components/ui/button';
import { MediaCard } from '../../../components/ui/media-card';
import { paths } from '../../../config/paths';
import { isInFuture } from '../../../lib/dates';
import { formatShortDateTime } from '../../../lib/format';
import { useTimeZone } from '../../../lib/use-time-zone';
import { canCancel } from '../lib/cancellation';

type MyEventCardProps = {
  event: Event;
  onDelete: (event: Event) => void;
  onCancel: (event: Event) => void;
  onDeleteReplay: (event: Event) => void;
};

/**
 * A card of My Events: Edit only before the event starts, Start Stream only while it is active (spec §4),
 * Cancel until it ends, Delete replay once one is ready, Attendees and Analytics always (a cancelled event's refunds
 * are there too). A cancelled event is over for good: it offers neither Edit nor Start Stream.
 */
export function MyEventCard({ event, onDelete, onCancel, onDeleteReplay }: MyEventCardProps) {
  const isCancelled = event.cancelledAt !== null;
  const timeZone = useTimeZone();
  return (
    <MediaCard
      title={event.name}
      image={{ src: event.image && imageUrls.event(event.image), alt: event.name }}
      badge={
        isCancelled ? (
          <Badge tone="danger">Cancelled</Badge>
        ) : event.isActive ? (
          <Badge>Active</Badge>
        ) : (
          <Badge tone="neutral">Inactive</Badge>
        )
      }
      actions={
        <>
          {!isCancelled && isInFuture(event.date) ? (
            <ButtonLink to={paths.editEvent(event.id)} size="sm">
              Edit Event
            </ButtonLink>
          ) : null}
          <ButtonLink to={paths.eventDetails(event.id)} variant="secondary" size="sm">
            View
          </ButtonLink>
          <ButtonLink to={paths.creatorEventAttendees(event.id)} variant="secondary" size="sm">
            Attendees
          </ButtonLink>
          {!isCancelled && event.isActive ? (
            <ButtonLink to={paths.eventStream(event.id)} variant="secondary" size="sm">
              Start Stream
            </ButtonLink>
          ) : null}
          <ButtonLink to={paths.eventAnalytics(event.id)} variant="secondary" size="sm">
            Analytics
          </ButtonLink>
          {canCancel(event) ? (
            <Button variant="secondary" size="sm" onClick={() => onCancel(event)}>
              Cancel event
            </Button>
          ) : null}
          {event.hasReplay ? (
            <Button variant="secondary" size="sm" onClick={() => onDeleteReplay(event)}>
              Delete replay
            </Button>
          ) : null}
          <button
            type="button"
            aria-label={`Delete event ${event.name}`}
            onClick={() => onDelete(event)}
            className="ml-auto rounded-lg p-2 text-slate-500 hover:bg-red-50 hover:text-red-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-red-600"
          >
            <Trash2 aria-hidden className="size-5" />
          </button>
        </>
      }
    >
      <p className="line-clamp-3 text-sm text-slate-600">{event.description}</p>
      <p className="flex items-center gap-2 text-sm text-slate-700">
        <CalendarDays aria-hidden className="size-4 text-brand-600" />
        {formatShortDateTime(event.date, timeZone)}
      </p>
    </MediaCard>
  );
}
