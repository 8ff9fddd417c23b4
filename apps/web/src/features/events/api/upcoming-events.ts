import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { EventListAnswer } from '../../../lib/answers';
import { pagedListQuery } from '../../../lib/paging';
import { queryKeys } from '../../../lib/query-keys';
import { isRangeReversed, toApiQuery, type EventSearch } from '../lib/event-search';

// GET /events lives apart from ./events: /events is a first-load screen, which carries no zod (its
// answer is checked by lib/answers.ts).

/** A few rows of cards per page; the next page loads as the user scrolls to the end. */
export const EVENTS_PAGE_SIZE = 24;

/**
 * GET /events: the active upcoming events that match the search, soonest first, a page at a time.
 * While a new search loads, the last results stay on screen rather than a spinner at each keystroke.
 * A reversed range is not asked for (the API refuses it): the page shows no list for it.
 */
export function useUpcomingEvents(search: EventSearch) {
  const query = toApiQuery(search);
  return useInfiniteQuery({
    ...pagedListQuery({
      queryKey: queryKeys.events.upcoming(EVENTS_PAGE_SIZE, query),
      pageSize: EVENTS_PAGE_SIZE,
      readPage: (page, signal) => {
        for (const [name, value] of Object.entries(query)) page.set(name, value);
        return api.get(`/events?${page.toString()}`, { schema: EventListAnswer, signal });
      },
    }),
    enabled: !isRangeReversed(search),
    placeholderData: keepPreviousData,
    meta: { errorMessage: 'Error fetching events' },
  });
}
