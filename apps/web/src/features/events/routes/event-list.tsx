import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { Card } from '../../../components/ui/card';
import { TextLink } from '../../../components/ui/text-link';
import { LoadError } from '../../../components/ui/load-error';
import { LoadMore } from '../../../components/ui/load-more';
import { PageSpinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUpcomingEvents } from '../api/upcoming-events';
import { EventSearchForm } from '../components/event-search-form';
import { UpcomingEventCard } from '../components/upcoming-event-card';
import {
  isRangeReversed,
  isSearching,
  readEventSearch,
  toSearchParams,
  type EventSearch,
} from '../lib/event-search';

export function EventListRoute() {
  useDocumentTitle('Upcoming Events');
  const [searchParams, setSearchParams] = useSearchParams();
  const search = readEventSearch(searchParams);
  // Typing replaces the URL rather than adding a history entry per pause.
  const onSearch = useCallback(
    (next: EventSearch) => setSearchParams(toSearchParams(next), { replace: true }),
    [setSearchParams],
  );
  const upcoming = useUpcomingEvents(search);
  // A failed load also toasts 'Error fetching events', declared on the read (api/upcoming-events.ts).
  const { data: events, isPending, isFetching, refetch } = upcoming;

  return (
    <Page
      title="Upcoming Events"
      description="Live shows from creators you love. Get your tickets before they sell out."
    >
      <EventSearchForm search={search} onSearch={onSearch} />
      {/* Asked for nothing (api/upcoming-events.ts): the last list shown would not answer these dates. */}
      {isRangeReversed(search) ? (
        <Card className="p-10 text-center text-slate-600">
          No events are listed: To must not be before From.{' '}
          <TextLink
            to={{
              pathname: paths.events,
              search: toSearchParams({ ...search, from: '', to: '' }).toString(),
            }}
          >
            Clear dates
          </TextLink>
        </Card>
      ) : isPending ? (
        <PageSpinner label="Loading events" />
      ) : !events ? (
        <LoadError
          message="The events could not be loaded."
          onRetry={() => void refetch()}
          isRetrying={isFetching}
        />
      ) : !events.length && isSearching(search) ? (
        <Card className="p-10 text-center text-slate-600">
          No events match your search. <TextLink to={paths.events}>Clear search</TextLink>
        </Card>
      ) : !events.length ? (
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
          <LoadMore pages={upcoming} noun="events" />
        </>
      )}
    </Page>
  );
}
