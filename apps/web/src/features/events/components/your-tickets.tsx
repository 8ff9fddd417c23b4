import type { Event } from '@stagedoor/shared/events';
import { counted } from '@stagedoor/shared/words';
import { CalendarPlus, History, Radio, Ticket } from 'lucide-react';
import { useId } from 'react';
import { Badge } from '../../../components/ui/badge';
import { ButtonAnchor, ButtonLink } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { calendarFileUrl, googleCalendarUrl } from '../lib/calendar';
import type { EventPhase } from '@stagedoor/shared/event-state';
import { Countdown } from '../../../components/ui/countdown';

type YourTicketsProps = {
  event: Event;
  /** Tickets the signed-in account holds (more than 0). */
  count: number;
  phase: EventPhase;
  now: number;
  isLive: boolean;
  /** The event page's absolute URL, for the calendar entry. */
  pageUrl: string;
};

/**
 * What a ticket holder comes back to the event page for: how many tickets they hold, how long until
 * the show, the way in once it is live (or to its replay, once one is ready), and the show in their
 * calendar.
 */
export function YourTickets({ event, count, phase, now, isLive, pageUrl }: YourTicketsProps) {
  const headingId = useId();
  const calendarId = useId();
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-6 border-b border-brand-100 bg-brand-50/60 px-6 py-6 sm:px-8 lg:flex-row lg:items-center lg:justify-between"
    >
      <div className="space-y-3">
        <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <Ticket aria-hidden className="size-5 text-brand-600" />
          {`You have ${counted(count, 'ticket')}`}
        </h2>
        {isLive ? (
          <div className="flex flex-wrap items-center gap-3">
            <Badge tone="danger">Live now</Badge>
            <ButtonLink to={paths.eventStream(event.id)} size="lg">
              <Radio aria-hidden className="size-5" />
              Watch now
            </ButtonLink>
          </div>
        ) : event.hasReplay ? (
          <ButtonLink to={paths.eventStream(event.id)} size="lg">
            <History aria-hidden className="size-5" />
            Watch the replay
          </ButtonLink>
        ) : phase === 'upcoming' ? (
          <div className="space-y-2">
            <p className="text-sm text-slate-600">The show starts in</p>
            <Countdown to={event.date} now={now} label="Time until the show" />
          </div>
        ) : phase === 'on' ? (
          <p className="text-sm text-slate-700">
            {`Showtime! "Watch now" appears here as soon as ${event.creator.firstName} goes live.`}
          </p>
        ) : null}
      </div>
      {phase !== 'ended' ? (
        <div className="space-y-2">
          <p id={calendarId} className="text-sm font-medium text-slate-700">
            Add to calendar
          </p>
          <div role="group" aria-labelledby={calendarId} className="flex flex-wrap gap-2">
            <ButtonAnchor href={calendarFileUrl(event.id)} download variant="secondary" size="sm">
              <CalendarPlus aria-hidden className="size-4" />
              Calendar file (.ics)
            </ButtonAnchor>
            <ButtonAnchor
              href={googleCalendarUrl(event, pageUrl)}
              target="_blank"
              rel="noopener noreferrer"
              variant="secondary"
              size="sm"
            >
              Google Calendar
            </ButtonAnchor>
          </div>
        </div>
      ) : null}
    </section>
  );
}
