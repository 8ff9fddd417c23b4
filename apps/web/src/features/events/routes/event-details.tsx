import { eventState, phaseOf } from '@stagedoor/shared/event-state';
import type { Event } from '@stagedoor/shared/events';
import { HELD_TICKETS_PARAM } from '@stagedoor/shared/waitlist';
import { imageUrls } from '@stagedoor/shared/images';
import { CalendarDays, Globe, Ticket } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { Badge } from '../../../components/ui/badge';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FallbackImage } from '../../../components/ui/fallback-image';
import { LoadError } from '../../../components/ui/load-error';
import { PageSpinner } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { toPickerValue } from '../../../lib/dates';
import { ApiError } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { formatLongDateTime, formatMoney, formatWallTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { preloadPage } from '../../../lib/page-preload';
import { useNow } from '../../../lib/use-now';
import { useTimeZone } from '../../../lib/use-time-zone';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useEventForPurchase } from '../api/events';
import { useIsLive } from '../api/live-status';
import { useTicketsHeld } from '../api/orders';
import { useReportVisit } from '../api/visits';
import { useWaitlistPlace } from '../api/waitlist';
import { ShareButton } from '../components/share-button';
import { TicketTypeList } from '../components/ticket-type-list';
import { HeldTickets, JoinWaitlistLink, WaitlistLine } from '../components/waitlist';
import { YourTickets } from '../components/your-tickets';
import { isSoldOut, notForSaleText, replayTicketText } from '../lib/for-sale';
import { isAroundShow } from '../lib/show-time';
import { typePriceText } from '../lib/ticket-types';

export function EventDetailsRoute() {
  const { id = '' } = useParams();
  const event = useEventForPurchase(id);
  useDocumentTitle(event.isError ? 'Event unavailable' : event.data?.name);

  if (event.isPending) return <PageSpinner label="Loading event" />;
  if (event.isError) {
    // A missing event stays missing; any other failure may pass on a second try.
    const isMissing = event.error instanceof ApiError && event.error.status === 404;
    return (
      <Page title="Event unavailable" description="This event could not be loaded." width="narrow">
        <div className="flex flex-wrap gap-3">
          {isMissing ? null : (
            <Button onClick={() => void event.refetch()} disabled={event.isFetching}>
              {event.isFetching ? 'Trying again...' : 'Try again'}
            </Button>
          )}
          <ButtonLink to={paths.events} variant={isMissing ? 'primary' : 'secondary'}>
            Browse events
          </ButtonLink>
        </div>
      </Page>
    );
  }
  return <EventDetails event={event.data} isRefreshing={event.isFetching} />;
}

function EventDetails({ event, isRefreshing }: { event: Event; isRefreshing: boolean }) {
  useReportVisit(event.id, 'event');
  const { user } = useSession();
  const navigate = useNavigate();
  const { creator } = event;
  const isCancelled = event.cancelledAt !== null;
  const timeZone = useTimeZone();
  const now = useNow();
  const phase = phaseOf(event.date, now);
  const notForSale = notForSaleText(event, now);
  const [onlyType] = event.ticketTypes;
  const forReplay = notForSale ? null : replayTicketText(event, now);
  const tickets = useTicketsHeld(user?.id ?? null, event.id);
  const soldOut = isSoldOut(event, now);
  // A fan's place on the waitlist matters while the event sells: a sold-out one's line to join, and
  // tickets held for them when their turn came (whether or not others are on sale by then).
  const { sells } = eventState(event, now);
  const fan = user && user.id !== event.creatorId && sells ? user : null;
  // Opened from the mail of a fan's turn: signed out, they are asked to sign in to see their tickets.
  const [search] = useSearchParams();
  const heldLink = search.has(HELD_TICKETS_PARAM);
  const place = useWaitlistPlace(fan?.id ?? null, event.id);
  const offer = fan ? place.data?.offer : null;
  const ticketCount = isCancelled ? 0 : (tickets.data ?? 0);
  const isLive = useIsLive(
    event.id,
    ticketCount === 0 || phase === 'ended' ? 'never' : isAroundShow(event.date, now) ? 'often' : 'rarely',
  );
  const pageUrl = new URL(paths.eventDetails(event.id), window.location.origin).href;
  const holdsTickets = ticketCount > 0;
  // A ticket holder's next screen is the stream's: its code loads now, not when they open it.
  useEffect(() => {
    if (holdsTickets) void preloadPage('stream');
  }, [holdsTickets]);

  // Purchasing needs an account: a visitor signs up as a spectator, then carries on to the checkout.
  const purchase = () =>
    navigate(user ? paths.checkout(event.id) : paths.userRegister(paths.checkout(event.id)));

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-10 sm:px-6 lg:px-8">
      <Card className="overflow-hidden">
        <FallbackImage
          src={event.image && imageUrls.event(event.image)}
          alt={event.name}
          className="aspect-[21/9] w-full"
        />
        {ticketCount > 0 ? (
          <YourTickets
            event={event}
            count={ticketCount}
            phase={phase}
            now={now}
            isLive={isLive}
            pageUrl={pageUrl}
          />
        ) : tickets.isError && tickets.data === undefined ? (
          <div className="px-6 pt-6 sm:px-8">
            <LoadError
              message="Your tickets to this event could not be loaded."
              onRetry={() => void tickets.refetch()}
              isRetrying={tickets.isFetching}
            />
          </div>
        ) : null}
        <div className="grid gap-8 p-6 sm:p-8 lg:grid-cols-[1fr_18rem]">
          <div className="space-y-4">
            {isCancelled ? <Badge tone="danger">Cancelled</Badge> : null}
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">{event.name}</h1>
            <p className="flex items-center gap-2 text-slate-700">
              <CalendarDays aria-hidden className="size-5 text-brand-600" />
              {formatLongDateTime(event.date, timeZone)}
            </p>
            <CreatorLocalTime event={event} viewerTimeZone={timeZone} />
            <p className="whitespace-pre-line text-slate-700">{event.description}</p>
            <p className="text-sm text-slate-600">
              Hosted by{' '}
              <TextLink to={paths.creatorProfile(creator.nickname)}>
                {`${creator.firstName} ${creator.lastName}`}
              </TextLink>{' '}
              <span className="text-slate-500">@{creator.nickname}</span>
            </p>
          </div>
          <aside className="space-y-4 rounded-xl bg-slate-50 p-5 ring-1 ring-slate-200">
            {offer && place.data ? (
              <HeldTickets
                eventId={event.id}
                place={place.data}
                offer={offer}
                now={now}
                timeZone={timeZone}
              />
            ) : null}
            {event.ticketTypes.length > 1 ? (
              <TicketTypeList types={event.ticketTypes} now={now} timeZone={timeZone} />
            ) : onlyType?.payWhatYouWant ? (
              <p className="text-xl font-bold text-slate-900">{typePriceText(onlyType)}</p>
            ) : (
              <p className="text-3xl font-bold text-slate-900">{formatMoney(event.price)}</p>
            )}
            <p className="flex items-center gap-2 text-sm text-slate-700">
              <Ticket aria-hidden className="size-4" />
              {`${event.ticketsLeft} tickets available`}
            </p>
            {notForSale ? (
              <p className={cn('text-sm font-medium', isCancelled ? 'text-red-700' : 'text-slate-700')}>
                {notForSale}
              </p>
            ) : (
              <>
                {forReplay ? <p className="text-sm font-medium text-brand-700">{forReplay}</p> : null}
                <Button onClick={purchase} disabled={isRefreshing} className="w-full" size="lg">
                  {isRefreshing ? 'Processing...' : 'Purchase Ticket'}
                </Button>
              </>
            )}
            {fan ? (
              <WaitlistLine
                event={event}
                place={place}
                soldOut={soldOut}
                // The server counts the tickets a fan holds against the event's limit per buyer.
                maxQuantity={Math.max(1, event.maxPerBuyer - ticketCount)}
              />
            ) : !user && sells && (soldOut || heldLink) ? (
              <JoinWaitlistLink eventId={event.id} held={heldLink} />
            ) : null}
            {isCancelled ? null : (
              <ShareButton
                title={event.name}
                text={`${event.name}, live with ${creator.firstName} ${creator.lastName}`}
                url={pageUrl}
                className="w-full"
              />
            )}
          </aside>
        </div>
      </Card>
    </div>
  );
}

/**
 * "7:00 PM for Maya (Europe/Lisbon)": the show's time where its creator is, when their clock reads
 * otherwise than the viewer's (with the day too when that differs).
 */
function CreatorLocalTime({ event, viewerTimeZone }: { event: Event; viewerTimeZone: string }) {
  const { creator, date } = event;
  const theirs = toPickerValue(date, creator.timeZone);
  const ours = toPickerValue(date, viewerTimeZone);
  if (theirs === ours) return null;
  const withDay = theirs.slice(0, 10) !== ours.slice(0, 10);
  return (
    <p className="flex items-center gap-2 text-sm text-slate-600">
      <Globe aria-hidden className="size-5 text-slate-400" />
      {`${formatWallTime(date, creator.timeZone, { withDay })} for ${creator.firstName} (${creator.timeZone})`}
    </p>
  );
}
