import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  anEvent,
  aUser,
  daysFromNow,
  hoursFromNow,
  signedInAs,
  stubApi,
  type ApiCall,
} from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { waitOnRealClock } from '../../../test/waits';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/**
 * The clock the countdown and the live checks run on, moved by the test. Fetches and timeouts stay
 * real: a `findBy` no longer polls on the faked interval, but it sees each change of the page and
 * waits as long as any other.
 */
function controlClock() {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  return (ms: number) => act(() => vi.advanceTimersByTime(ms));
}

const liveCalls = (calls: ApiCall[]) => calls.filter(({ path }) => path === '/events/4/live');

/** A signed-in fan holding tickets to event 4 (2 + 1), plus orders that must not count. */
/** The summary of event 4's orders, `tickets` of them: only asked for that event. */
function ticketsTo(query: URLSearchParams, tickets: number) {
  return query.get('eventId') === '4' ? { orders: 2, tickets } : { orders: 9, tickets: 99 };
}

describe('the event page for a ticket holder', () => {
  it('counts their tickets and counts down to the show, each second', async () => {
    const advance = controlClock();
    const date = new Date(Date.now() + 2 * DAY_MS + 3 * HOUR_MS + 4 * 60_000 + 5_000).toISOString();
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ date }) },
      'GET /orders/summary': ({ query }) => ({ body: ticketsTo(query, 3) }),
    });
    renderApp('/events/4');

    expect(await screen.findByRole('heading', { name: 'You have 3 tickets' })).toBeInTheDocument();
    const timer = screen.getByRole('timer', { name: 'Time until the show' });
    expect(timer).toHaveTextContent('2 days 3 hours 4 minutes 5 seconds');

    advance(1000);
    expect(timer).toHaveTextContent('2 days 3 hours 4 minutes 4 seconds');
    advance(4000);
    expect(timer).toHaveTextContent('2 days 3 hours 4 minutes 0 seconds');
    advance(1000);
    expect(timer).toHaveTextContent('2 days 3 hours 3 minutes 59 seconds');
    // Buying more stays possible.
    expect(screen.getByRole('button', { name: 'Purchase Ticket' })).toBeEnabled();
  });

  it('says "1 ticket" for one', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent() },
      'GET /orders/summary': { body: { orders: 1, tickets: 1 } },
    });
    renderApp('/events/4');

    expect(await screen.findByRole('heading', { name: 'You have 1 ticket' })).toBeInTheDocument();
  });

  it('adds the show to a calendar: the .ics download and a Google Calendar entry of 90 minutes', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': {
        body: anEvent({
          name: 'Jazz & Blues',
          description: 'Standards.',
          date: '2030-03-05T18:30:00.000Z',
        }),
      },
      'GET /orders/summary': { body: { orders: 1, tickets: 2 } },
    });
    renderApp('/events/4');

    const calendar = await screen.findByRole('group', { name: 'Add to calendar' });
    const file = within(calendar).getByRole('link', { name: 'Calendar file (.ics)' });
    expect(file).toHaveAttribute('href', '/api/events/4/calendar.ics');
    expect(file).toHaveAttribute('download');
    const google = new URL(
      within(calendar).getByRole('link', { name: 'Google Calendar' }).getAttribute('href') ?? '',
    );
    expect(`${google.origin}${google.pathname}`).toBe('https://calendar.google.com/calendar/render');
    expect(google.searchParams.get('action')).toBe('TEMPLATE');
    expect(google.searchParams.get('text')).toBe('Jazz & Blues');
    expect(google.searchParams.get('dates')).toBe('20300305T183000Z/20300305T200000Z');
    expect(google.searchParams.get('details')).toBe(
      'Standards.\n\nLive on Stagedoor with Grace Hopper: http://localhost:3000/events/4',
    );
    expect(google.searchParams.get('location')).toBe('http://localhost:3000/events/4');
  });

  it('offers a ticket holder "Watch the replay" once a replay of the show is ready', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ date: hoursFromNow(-3), hasReplay: true }) },
      'GET /orders/summary': { body: { orders: 1, tickets: 1 } },
    });
    renderApp('/events/4');

    expect(await screen.findByRole('link', { name: 'Watch the replay' })).toHaveAttribute(
      'href',
      '/events/4/stream',
    );
    expect(screen.getByRole('heading', { name: 'You have 1 ticket' })).toBeInTheDocument();
  });

  it('offers no replay to a ticket holder of a show without one', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ date: hoursFromNow(-3), hasReplay: false }) },
      'GET /orders/summary': { body: { orders: 1, tickets: 1 } },
    });
    renderApp('/events/4');

    await screen.findByRole('heading', { name: 'You have 1 ticket' });
    expect(screen.queryByRole('link', { name: 'Watch the replay' })).not.toBeInTheDocument();
  });

  it('offers no replay to a fan without a ticket, but sells them one for it', async () => {
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ date: hoursFromNow(-3), hasReplay: true }) },
      'GET /orders/summary': { body: { orders: 0, tickets: 0 } },
    });
    renderApp('/events/4');

    await screen.findByText(
      'The show has ended: a ticket bought now is for its replay, to watch whenever you like.',
    );
    expect(screen.getByRole('button', { name: 'Purchase Ticket' })).toBeEnabled();
    await waitOnRealClock(() => expect(calls.some(({ path }) => path === '/orders/summary')).toBe(true));
    await act(async () => undefined);
    expect(screen.queryByRole('heading', { name: /^You have/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Watch the replay' })).not.toBeInTheDocument();
  });

  it('asks every 15 seconds around the show whether it is live, and offers "Watch now" once it is', async () => {
    const advance = controlClock();
    let live = false;
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ date: new Date(Date.now() + 30 * 60_000).toISOString() }) },
      'GET /orders/summary': { body: { orders: 1, tickets: 2 } },
      'GET /events/4/live': () => ({ body: { live } }),
    });
    renderApp('/events/4');

    await screen.findByRole('timer', { name: 'Time until the show' });
    // Asked once the page knows the fan holds tickets, which may come after the timer shows.
    await waitOnRealClock(() => expect(liveCalls(calls)).toHaveLength(1));
    expect(screen.queryByRole('link', { name: 'Watch now' })).not.toBeInTheDocument();

    live = true;
    advance(14_000);
    expect(liveCalls(calls)).toHaveLength(1);
    advance(1_000);

    const watch = await screen.findByRole('link', { name: 'Watch now' });
    expect(watch).toHaveAttribute('href', '/events/4/stream');
    expect(liveCalls(calls)).toHaveLength(2);
    expect(screen.getByText('Live now')).toBeInTheDocument();
  });

  it('asks every two minutes days before the show (a creator may open early), never a fan without tickets', async () => {
    const advance = controlClock();
    let live = false;
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ date: daysFromNow(2) }) },
      'GET /events/5': { body: anEvent({ id: 5, date: hoursFromNow(0.25) }) },
      'GET /orders/summary': ({ query }) => ({
        body: query.get('eventId') === '4' ? { orders: 1, tickets: 2 } : { orders: 0, tickets: 0 },
      }),
      'GET /events/4/live': () => ({ body: { live } }),
      'GET /events/5/live': { body: { live: true } },
    });
    const page = renderApp('/events/4');
    await screen.findByRole('heading', { name: 'You have 2 tickets' });
    await waitOnRealClock(() => expect(liveCalls(calls)).toHaveLength(1));
    live = true;
    advance(60_000);
    expect(liveCalls(calls)).toHaveLength(1);
    advance(60_000);
    expect(await screen.findByRole('link', { name: 'Watch now' })).toHaveAttribute(
      'href',
      '/events/4/stream',
    );
    expect(liveCalls(calls)).toHaveLength(2);
    page.unmount();

    // Event 5 is about to start, but this fan holds no ticket to it.
    const other = renderApp('/events/5');
    await within(other.container).findByRole('button', { name: 'Purchase Ticket' });
    advance(60_000);
    expect(calls.some(({ path }) => path === '/events/5/live')).toBe(false);
    expect(within(other.container).queryByRole('heading', { name: /You have/ })).not.toBeInTheDocument();
  });

  it('offers the way back in while the show is on, after its start', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ date: hoursFromNow(-1) }) },
      'GET /orders/summary': { body: { orders: 1, tickets: 2 } },
      'GET /events/4/live': { body: { live: false } },
    });
    renderApp('/events/4');

    expect(
      await screen.findByText('Showtime! "Watch now" appears here as soon as Grace goes live.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
  });

  it("says so when the tickets cannot be read, and shows them after 'Try again'", async () => {
    let failing = true;
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent() },
      'GET /orders/summary': () =>
        failing
          ? { status: 403, body: { statusCode: 403, code: 'FORBIDDEN', message: 'No' } }
          : { body: { orders: 1, tickets: 2 } },
    });
    const { user } = renderApp('/events/4');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your tickets to this event could not be loaded.');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { name: 'You have 2 tickets' })).toBeInTheDocument();
  });
});

describe('the event page for everyone', () => {
  it.each([
    ['taken off sale', { isActive: false }, 'Tickets to this event are not on sale.'],
    ['sold out', { ticketsLeft: 0 }, 'Sold out: every ticket has been sold.'],
    [
      'cancelled',
      { cancelledAt: daysFromNow(-1) },
      'This event was cancelled. Every buyer has been refunded.',
    ],
    ['ended', { date: daysFromNow(-2) }, 'This event has ended.'],
  ])(
    'offers no way to buy an event %s, on its page or at its checkout, and says why',
    async (_, change, why) => {
      stubApi({ ...signedInAs(aUser()), 'GET /events/4': { body: anEvent(change) } });
      const page = renderApp('/events/4');
      expect(await screen.findByText(why)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Purchase Ticket' })).not.toBeInTheDocument();
      page.unmount();

      renderApp('/events/4/checkout');
      expect(await screen.findByText(why)).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Complete Purchase' })).not.toBeInTheDocument();
      expect(screen.queryByText('Total')).not.toBeInTheDocument();
    },
  );

  it('no longer sells an event that has ended (90 minutes after its start)', async () => {
    stubApi({
      'GET /events/4': { body: anEvent({ date: new Date(Date.now() - 91 * 60_000).toISOString() }) },
    });
    renderApp('/events/4');

    expect(await screen.findByText('This event has ended.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Purchase Ticket' })).not.toBeInTheDocument();
  });

  it('stops selling at the start, as the server does, and says the event has ended 90 minutes later, while the page is open', async () => {
    const advance = controlClock();
    stubApi({ 'GET /events/4': { body: anEvent({ date: new Date(Date.now() + 30_000).toISOString() }) } });
    renderApp('/events/4');

    expect(await screen.findByRole('button', { name: 'Purchase Ticket' })).toBeEnabled();

    advance(30_000);
    expect(screen.getByText('Ticket sales closed when the show started.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Purchase Ticket' })).not.toBeInTheDocument();
    expect(screen.queryByText('This event has ended.')).not.toBeInTheDocument();

    advance(89 * 60_000);
    expect(screen.queryByText('This event has ended.')).not.toBeInTheDocument();
    advance(60_000);
    expect(screen.getByText('This event has ended.')).toBeInTheDocument();
    expect(screen.queryByText('Ticket sales closed when the show started.')).not.toBeInTheDocument();
  });

  it('shows the date in the account time zone, and the time where the creator is when it reads otherwise', async () => {
    stubApi({
      ...signedInAs(aUser({ timeZone: 'America/Los_Angeles' })),
      'GET /events/4': {
        body: anEvent({
          date: '2030-03-05T19:00:00.000Z',
          creator: { nickname: 'grace', firstName: 'Grace', lastName: 'Hopper', timeZone: 'Europe/Lisbon' },
        }),
      },
      'GET /orders': { body: [] },
    });
    renderApp('/events/4');

    expect(await screen.findByText('March 5, 2030 at 11:00 AM PST')).toBeInTheDocument();
    expect(screen.getByText('7:00 PM for Grace (Europe/Lisbon)')).toBeInTheDocument();
  });

  it("names the creator's day too when it is another day there, and nothing when the clocks agree", async () => {
    const creator = { nickname: 'grace', firstName: 'Grace', lastName: 'Hopper', timeZone: 'Asia/Tokyo' };
    stubApi({
      ...signedInAs(aUser({ timeZone: 'America/Los_Angeles' })),
      'GET /events/4': { body: anEvent({ date: '2030-03-05T19:00:00.000Z', creator }) },
      'GET /events/5': {
        body: anEvent({
          id: 5,
          date: '2030-03-05T19:00:00.000Z',
          creator: { ...creator, timeZone: 'America/Vancouver' },
        }),
      },
      'GET /orders': { body: [] },
    });
    renderApp('/events/4');
    expect(await screen.findByText('Mar 6, 4:00 AM for Grace (Asia/Tokyo)')).toBeInTheDocument();

    const other = renderApp('/events/5');
    await within(other.container).findByText('March 5, 2030 at 11:00 AM PST');
    expect(within(other.container).queryByText(/for Grace/)).not.toBeInTheDocument();
  });

  it("shows a visitor the date in the browser's time zone", async () => {
    const resolved = Intl.DateTimeFormat.prototype.resolvedOptions;
    vi.spyOn(Intl.DateTimeFormat.prototype, 'resolvedOptions').mockImplementation(function (
      this: Intl.DateTimeFormat,
    ) {
      return { ...resolved.call(this), timeZone: 'Asia/Kolkata' };
    });
    stubApi({ 'GET /events/4': { body: anEvent({ date: '2030-03-05T19:00:00.000Z' }) } });
    renderApp('/events/4');

    expect(await screen.findByText('March 6, 2030 at 12:30 AM GMT+5:30')).toBeInTheDocument();
  });

  it('shares the page through the Web Share API where the browser has one', async () => {
    const share = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, share });
    stubApi({ 'GET /events/4': { body: anEvent() } });
    const { user } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'Share' }));

    expect(share).toHaveBeenCalledWith({
      title: 'Jazz Night',
      text: 'Jazz Night, live with Grace Hopper',
      url: 'http://localhost:3000/events/4',
    });
    expect(screen.queryByText('Link copied')).not.toBeInTheDocument();
  });

  it('copies the link, and says so, where there is no Web Share API (as in jsdom)', async () => {
    stubApi({ 'GET /events/4': { body: anEvent() } });
    const { user } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'Share' }));

    expect(await screen.findByText('Link copied')).toBeInTheDocument();
    // user-event gives the page a clipboard of its own, which the test reads back.
    expect(await navigator.clipboard.readText()).toBe('http://localhost:3000/events/4');
  });

  it("offers 'Try again' when the event could not be loaded for a reason that may pass", async () => {
    let failing = true;
    stubApi({
      'GET /events/4': () =>
        failing
          ? { status: 429, body: { statusCode: 429, code: 'RATE_LIMITED', message: 'Slow down' } }
          : { body: anEvent() },
    });
    const { user } = renderApp('/events/4');

    await screen.findByRole('heading', { name: 'Event unavailable' });
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Jazz Night' })).toBeInTheDocument();
  });
});
