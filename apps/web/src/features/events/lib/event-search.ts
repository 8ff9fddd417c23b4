import {
  EVENT_PRICE_MAX,
  EVENT_SEARCH_MAX_LENGTH,
  EVENT_SEARCH_MAX_WORDS,
  searchWords,
} from '@stagedoor/shared/limits';

/**
 * The /events search as its URL holds it (`?q=&from=&to=&maxPrice=`), so a search can be shared and
 * survives a reload: words, the first and last day (YYYY-MM-DD, the visitor's calendar) and a maximum
 * price in dollars; '' where the search sets none.
 */
export type EventSearch = { q: string; from: string; to: string; maxPrice: string };

const FIELDS = ['q', 'from', 'to', 'maxPrice'] as const;
/** What narrows the list besides the words: on a phone, behind the form's Filters toggle. */
const FILTERS = ['from', 'to', 'maxPrice'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d+(\.\d{1,2})?$/;

/** A real day: Date accepts February 30th (as March 2nd), so the day must come back unchanged. */
function isDay(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return DAY.test(text) && !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/**
 * The search a URL asks for. What the API would refuse (a date that is none, an amount that is not one,
 * words past the eighth) is left out, so a hand-edited link still lists events. A range that ends before
 * it starts is kept, as typing it does: the page says so instead of listing what the range did not ask
 * for (`isRangeReversed`).
 */
export function readEventSearch(params: URLSearchParams): EventSearch {
  const text = (name: string) => params.get(name)?.trim() ?? '';
  const day = (name: string) => (isDay(text(name)) ? text(name) : '');
  const maxPrice = text('maxPrice');
  return {
    q: searchWords(text('q').slice(0, EVENT_SEARCH_MAX_LENGTH)).slice(0, EVENT_SEARCH_MAX_WORDS).join(' '),
    from: day('from'),
    to: day('to'),
    maxPrice: AMOUNT.test(maxPrice) && Number(maxPrice) <= EVENT_PRICE_MAX ? maxPrice : '',
  };
}

/** The URL's query string of a search: only the parts it sets. */
export function toSearchParams(search: EventSearch): URLSearchParams {
  const params = new URLSearchParams();
  for (const field of FIELDS) if (search[field]) params.set(field, search[field]);
  return params;
}

/** What typing has produced, as the URL will hold it. */
export const cleanSearch = (search: EventSearch) => readEventSearch(toSearchParams(search));

export const sameSearch = (a: EventSearch, b: EventSearch) => FIELDS.every((field) => a[field] === b[field]);

export const isSearching = (search: EventSearch) => FIELDS.some((field) => search[field] !== '');

export const activeFilterCount = (search: EventSearch) =>
  FILTERS.filter((field) => search[field] !== '').length;

/** A last day before the first: GET /events refuses it, so no list can answer it. */
export const isRangeReversed = ({ from, to }: EventSearch) => from !== '' && to !== '' && to < from;

/** A day of the visitor's calendar, `offset` days on: its first instant. */
function localDay(day: string, offset = 0): Date {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date + offset);
}

/**
 * GET /events's search parameters: the days become the instants where they start and end for the
 * visitor (the API takes a bare date as a UTC day), both ends included.
 */
export function toApiQuery(search: EventSearch): Record<string, string> {
  const query: Record<string, string> = {};
  if (search.q) query.q = search.q;
  if (search.from) query.from = localDay(search.from).toISOString();
  if (search.to) query.to = new Date(localDay(search.to, 1).getTime() - 1).toISOString();
  if (search.maxPrice) query.maxPrice = search.maxPrice;
  return query;
}
