import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { anEvent, stubApi, type ApiCall } from '../../../test/api-stub';
import { stubIntersectionObserver } from '../../../test/intersection-observer';
import { renderApp } from '../../../test/render-app';
import { holdClock, waitOnRealClock } from '../../../test/waits';
import { EVENTS_PAGE_SIZE } from '../api/upcoming-events';
import { SEARCH_DEBOUNCE_MS } from '../components/event-search-form';

const page = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => anEvent({ id: from + index, name: `Show ${from + index}` }));

describe('event list', () => {
  it("says 'No upcoming events available at the moment.' when there are none", async () => {
    stubApi({ 'GET /events': { body: [] } });
    renderApp('/events');

    expect(await screen.findByText('No upcoming events available at the moment.')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('shows each event as a card with its badge, price, stock and links', async () => {
    stubApi({
      'GET /events': {
        body: [anEvent({ id: 9, name: 'Jazz Night', price: 12.5, ticketsLeft: 8, image: null })],
      },
    });
    renderApp('/events');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    expect(within(card).getByText('Active')).toBeInTheDocument();
    expect(within(card).getByText('$12.50')).toBeInTheDocument();
    expect(within(card).getByText('8 tickets left')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Jazz Night' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Get Your Tickets' })).toHaveAttribute('href', '/events/9');
    expect(within(card).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/creator/grace',
    );
  });

  it('puts a placeholder in place of an image that fails to load', async () => {
    stubApi({ 'GET /events': { body: [anEvent({ image: 'gone.png' })] } });
    renderApp('/events');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    const image = within(card).getByRole('img', { name: 'Jazz Night' });
    expect(image).toHaveAttribute('src', '/api/events/image/gone.png');
    fireEvent.error(image);

    expect(within(card).getByRole('img', { name: 'Jazz Night' }).tagName).toBe('DIV');
  });

  it('loads the next page when the end of the list scrolls into view, and stops after a short page', async () => {
    const scrollIntoView = stubIntersectionObserver();
    const calls = stubApi({
      'GET /events': ({ query }) => {
        const offset = Number(query.get('offset'));
        return { body: offset === 0 ? page(1, EVENTS_PAGE_SIZE) : page(offset + 1, 2) };
      },
    });
    renderApp('/events');

    expect(await screen.findAllByRole('article')).toHaveLength(EVENTS_PAGE_SIZE);
    scrollIntoView();

    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(EVENTS_PAGE_SIZE + 2));
    expect(calls.map(({ query }) => query.toString())).toEqual([
      `limit=${EVENTS_PAGE_SIZE}&offset=0`,
      `limit=${EVENTS_PAGE_SIZE}&offset=${EVENTS_PAGE_SIZE}`,
    ]);
    expect(screen.queryByRole('button', { name: 'Load more events' })).not.toBeInTheDocument();
  });

  it("says 'Error fetching events' when the list cannot be loaded, not that there are none, and loads it on 'Try again'", async () => {
    let failing = true;
    stubApi({
      'GET /events': () =>
        failing
          ? { status: 429, body: { statusCode: 429, code: 'RATE_LIMITED', message: 'Slow down' } }
          : { body: [anEvent({ name: 'Jazz Night' })] },
    });
    const { user } = renderApp('/events');

    expect(await screen.findByText('Error fetching events')).toBeInTheDocument();
    expect(screen.getByText('The events could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByText('No upcoming events available at the moment.')).not.toBeInTheDocument();

    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('article', { name: 'Jazz Night' })).toBeInTheDocument();
    expect(screen.queryByText('The events could not be loaded.')).not.toBeInTheDocument();
  });
});

describe('event search', () => {
  const jazz = anEvent({ id: 1, name: 'Jazz Night' });
  const folk = anEvent({ id: 2, name: 'Folk Morning' });
  /** A stand-in for the server's search: by name only, enough to see the list narrow. */
  const searchByName = ({ query }: ApiCall) => {
    const q = query.get('q')?.toLowerCase() ?? '';
    return { body: [jazz, folk].filter((event) => event.name.toLowerCase().includes(q)) };
  };
  const searches = (calls: ApiCall[]) =>
    calls.filter((call) => call.path === '/events').map((call) => call.query.get('q'));

  it('narrows the list once typing pauses, and keeps the search in the URL', async () => {
    const calls = stubApi({ 'GET /events': searchByName });
    const { user, location } = renderApp('/events');
    await screen.findByRole('article', { name: 'Folk Morning' });
    // The keystrokes come with no time between them, however slowly this machine types them.
    holdClock();

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'jazz');
    await act(() => vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS - 1));
    expect(searches(calls)).toEqual([null]);
    await act(() => vi.advanceTimersByTimeAsync(1));

    await waitOnRealClock(() =>
      expect(screen.queryByRole('article', { name: 'Folk Morning' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('article', { name: 'Jazz Night' })).toBeInTheDocument();
    expect(location()).toBe('/events?q=jazz');
    // One search for the word, not one per keystroke.
    expect(searches(calls)).toEqual([null, 'jazz']);
  });

  it('opens a shared search filled in, asking for whole days of the visitor', async () => {
    const calls = stubApi({ 'GET /events': { body: [jazz] } });
    renderApp('/events?q=jazz&from=2030-06-01&to=2030-06-02&maxPrice=20');

    await screen.findByRole('article', { name: 'Jazz Night' });
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('jazz');
    expect(screen.getByLabelText('From')).toHaveValue('2030-06-01');
    expect(screen.getByLabelText('To')).toHaveValue('2030-06-02');
    expect(screen.getByLabelText('Maximum price ($)')).toHaveValue(20);
    expect(Object.fromEntries(calls[0]?.query ?? [])).toEqual({
      limit: String(EVENTS_PAGE_SIZE),
      offset: '0',
      q: 'jazz',
      from: new Date(2030, 5, 1).toISOString(),
      to: new Date(new Date(2030, 5, 3).getTime() - 1).toISOString(),
      maxPrice: '20',
    });
  });

  it('says reversed dates are wrong by the To field and in place of the list, and asks for nothing with them', async () => {
    const calls = stubApi({ 'GET /events': searchByName });
    const { user, location } = renderApp('/events');
    await screen.findByRole('article', { name: 'Folk Morning' });

    await user.type(screen.getByLabelText('From'), '2030-06-10');
    await user.type(screen.getByLabelText('To'), '2030-06-01');

    expect(screen.getByLabelText('To')).toHaveAccessibleErrorMessage('Must not be before From');
    // Once typing pauses, the search is sent: no list pretends to be its result, nothing is asked.
    await waitFor(() => expect(location()).toContain('from=2030-06-10'));
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(calls.filter(({ query }) => query.has('from') || query.has('to'))).toEqual([]);
    expect(screen.getByText(/No events are listed: To must not be before From\./)).toBeInTheDocument();
    // The URL holds what the form shows, so the link opens the same page.
    expect(location()).toBe('/events?from=2030-06-10&to=2030-06-01');
  });

  it('opens a link with reversed dates as it shows them typed, asks for nothing, and clears only the dates', async () => {
    const calls = stubApi({ 'GET /events': searchByName });
    const { user, location } = renderApp('/events?q=jazz&from=2030-06-10&to=2030-06-01');

    expect(await screen.findByLabelText('From')).toHaveValue('2030-06-10');
    expect(screen.getByLabelText('To')).toHaveValue('2030-06-01');
    expect(screen.getByLabelText('To')).toHaveAccessibleErrorMessage('Must not be before From');
    expect(screen.getByText(/No events are listed: To must not be before From\./)).toBeInTheDocument();
    // On a phone the filters open by themselves: the error is among them.
    expect(screen.getByRole('button', { name: /^Filters/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    expect(calls.filter(({ path }) => path === '/events')).toEqual([]);

    await user.click(screen.getByRole('link', { name: 'Clear dates' }));

    expect(await screen.findByRole('article', { name: 'Jazz Night' })).toBeInTheDocument();
    expect(location()).toBe('/events?q=jazz');
    expect(screen.getByLabelText('To')).toHaveValue('');
    expect(searches(calls)).toEqual(['jazz']);
  });

  it('leaves out of a hand-edited link what is not a date or an amount', async () => {
    const calls = stubApi({ 'GET /events': { body: [jazz] } });
    renderApp('/events?from=2030-02-30&to=2030-13-01&maxPrice=cheap');

    await screen.findByRole('article', { name: 'Jazz Night' });
    expect(calls[0]?.query.toString()).toBe(`limit=${EVENTS_PAGE_SIZE}&offset=0`);
  });

  it('searches at most the first eight words, as many as the API takes', async () => {
    const calls = stubApi({ 'GET /events': { body: [jazz] } });
    renderApp('/events?q=a+b++c+d+e+f+g+h+i+j');

    await screen.findByRole('article', { name: 'Jazz Night' });
    expect(calls[0]?.query.get('q')).toBe('a b c d e f g h');
  });

  it("says 'No events match your search.' with a link that clears it", async () => {
    stubApi({ 'GET /events': searchByName });
    const { user, location } = renderApp('/events?q=opera');

    expect(await screen.findByText(/No events match your search\./)).toBeInTheDocument();
    expect(screen.queryByText('No upcoming events available at the moment.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Clear search' }));

    expect(await screen.findByRole('article', { name: 'Folk Morning' })).toBeInTheDocument();
    expect(location()).toBe('/events');
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  });

  it('searches at once on Enter, without waiting for a pause', async () => {
    stubApi({ 'GET /events': searchByName });
    const { user, location } = renderApp('/events');
    await screen.findByRole('article', { name: 'Folk Morning' });

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'folk{Enter}');

    expect(location()).toBe('/events?q=folk');
    expect(await screen.findByRole('article', { name: 'Folk Morning' })).toBeInTheDocument();
    expect(screen.queryByRole('article', { name: 'Jazz Night' })).not.toBeInTheDocument();
  });
});
