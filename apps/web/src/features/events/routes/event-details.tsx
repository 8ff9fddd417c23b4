import type { Event } from '@stagedoor/shared/events';
import { CalendarDays, Ticket } from 'lucide-react';
import { useNavigate, useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { Badge } from '../../../components/ui/badge';
import { Button, ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { FallbackImage } from '../../../components/ui/fallback-image';
import { PageSpinner } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { formatLongDateTime, formatMoney } from '../../../lib/format';
import { imageUrls } from '../../../lib/images';
import { useSession } from '../../../lib/session';
import { useEventForPurchase } from '../api/events';
import { EVENT_CANCELLED_TEXT } from '../lib/cancellation';

export function EventDetailsRoute() {
  const { id = '' } = useParams();
  const event = useEventForPurchase(id);

  if (event.isPending) return <PageSpinner label="Loading event" />;
  if (event.isError) {
    return (
      <Page title="Event unavailable" description="This event could not be loaded." width="narrow">
        <ButtonLink to={paths.events}>Browse events</ButtonLink>
      </Page>
    );
  }
  return <EventDetails event={event.data} isRefreshing={event.isFetching} />;
}

function EventDetails({ event, isRefreshing }: { event: Event; isRefreshing: boolean }) {
  const { user } = useSession();
  const navigate = useNavigate();
  const { creator } = event;
  const isSoldOut = event.ticketsLeft < 1;
  const isCancelled = event.cancelledAt !== null;

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
        <div className="grid gap-8 p-6 sm:p-8 lg:grid-cols-[1fr_18rem]">
          <div className="space-y-4">
            {isCancelled ? <Badge tone="danger">Cancelled</Badge> : null}
            <h1 className="text-3xl font-bold tracking-tight text-slate-900">{event.name}</h1>
            <p className="flex items-center gap-2 text-slate-700">
              <CalendarDays aria-hidden className="size-5 text-brand-600" />
              {formatLongDateTime(event.date)}
            </p>
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
            <p className="text-3xl font-bold text-slate-900">{formatMoney(event.price)}</p>
            <p className="flex items-center gap-2 text-sm text-slate-700">
              <Ticket aria-hidden className="size-4" />
              {`${event.ticketsLeft} tickets available`}
            </p>
            {isCancelled ? (
              <p className="text-sm font-medium text-red-700">{EVENT_CANCELLED_TEXT}</p>
            ) : (
              <>
                <Button onClick={purchase} disabled={isRefreshing || isSoldOut} className="w-full" size="lg">
                  {isRefreshing ? 'Processing...' : 'Purchase Ticket'}
                </Button>
                {isSoldOut ? <p className="text-sm font-medium text-red-600">Sold out</p> : null}
              </>
            )}
          </aside>
        </div>
      </Card>
    </div>
  );
}
