import { useEffect } from 'react';
import { Page } from '../../../components/layout/page';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { PageSpinner, Spinner } from '../../../components/ui/spinner';
import { notify } from '../../../lib/notify';
import { useOnVisible } from '../../../lib/use-on-visible';
import { useUpcomingEvents } from '../api/events';
import { UpcomingEventCard } from '../components/upcoming-event-card';

export function EventListRoute() {
  const {
    data: events,
    isPending,
    isError,
    hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
  } = useUpcomingEvents();
  const canLoadMore = hasNextPage && !isFetchingNextPage && !isError;
  const sentinelRef = useOnVisible<HTMLDivElement>(() => void fetchNextPage(), canLoadMore);

  useEffect(() => {
    if (isError) notify('Error fetching events', 'error');
  }, [isError]);

  return (
    <Page
      title="Upcoming Events"
      description="Live shows from creators you love. Get your tickets before they sell out."
    >
      {isPending ? (
        <PageSpinner label="Loading events" />
      ) : !events?.length ? (
        <Card className="p-10 text-center text-slate-600">No upcoming events available at the moment.</Card>
      ) : (
        <>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {events.map((event) => (
              <li key={event.id}>
                <UpcomingEventCard event={event} />
              </li>
            ))}
          </ul>
          {hasNextPage ? (
            <div ref={sentinelRef} className="mt-10 flex justify-center">
              {isFetchingNextPage ? (
                <Spinner label="Loading more events" />
              ) : (
                // Scrolling loads the next page by itself; the button serves anyone who does not scroll.
                <Button variant="secondary" onClick={() => void fetchNextPage()}>
                  Load more events
                </Button>
              )}
            </div>
          ) : null}
        </>
      )}
    </Page>
  );
}
