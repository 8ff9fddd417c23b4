import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EventEarnings } from '@stagedoor/shared/money';
import { CREATOR_EVENTS_PAGE_SIZE } from '../../../lib/reads';
import {
  aCreator,
  anEvent,
  daysFromNow,
  hoursFromNow,
  pagesOf,
  signedInAs,
  stubApi,
  type ApiCall,
} from '../../../test/api-stub';
import { stubIntersectionObserver } from '../../../test/intersection-observer';
import { renderApp } from '../../../test/render-app';

const creator = aCreator();
const myEvents = `GET /events/creator/${creator.id}`;

/** `count` upcoming events of the creator, "Show {from}" onwards, a day apart, soonest first. */
const shows = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) =>
    anEvent({ id: from + index, name: `Show ${from + index}`, date: daysFromNow(from + index) }),
  );
/** The pages My Events asked for, as `limit` and `offset`. */
const pagesAskedFor = (calls: ApiCall[]) =>
  calls.filter(({ path }) => path === `/events/creator/${creator.id}`).map(({ query }) => query.toString());
/** The events on screen, in their order. */
const shownEvents = () =>
  screen.getAllByRole('article').map((card) => within(card).getByRole('heading').textContent);

const salesOf = (eventId: number, gross: number): EventEarnings => ({
  eventId,
  name: 'Late Show',
  date: hoursFromNow(2),
  cancelled: false,
  ticketsSold: 8,
  gross,
  platformFee: gross / 10,
  processorFee: 0,
  refunded: 0,
  penalty: 0,
  net: gross - gross / 10,
});
const earningsWith = (...events: EventEarnings[]) => ({
  balance: { pending: 0, available: 0, reserved: 0, due: 0, paidOut: 0 },
  events,
});
const cancelText = (name: string) =>
  `Cancel "${name}"? Every buyer will be refunded in full and the event stops selling and streaming.`;

describe('my events', () => {
  it('offers Edit only before the event, Start Stream only while it is active, and Attendees always', async () => {
    stubApi({
      ...signedInAs(creator),
      [myEvents]: {
        body: [
          anEvent({ id: 1, name: 'Coming Up', date: daysFromNow(3), isActive: true }),
          anEvent({ id: 2, name: 'Paused', date: daysFromNow(3), isActive: false }),
          anEvent({ id: 3, name: 'Last Week', date: daysFromNow(-7), isActive: true }),
        ],
      },
    });
    renderApp('/creators/dashboard/my-events');

    const comingUp = await screen.findByRole('article', { name: 'Coming Up' });
    expect(within(comingUp).getByText('Active')).toBeInTheDocument();
    expect(within(comingUp).getByRole('link', { name: 'Edit Event' })).toHaveAttribute(
      'href',
      '/creators/dashboard/events/1/edit',
    );
    expect(within(comingUp).getByRole('link', { name: 'View' })).toHaveAttribute('href', '/events/1');
    expect(within(comingUp).getByRole('link', { name: 'Attendees' })).toHaveAttribute(
      'href',
      '/creators/dashboard/events/1/attendees',
    );
    expect(within(comingUp).getByRole('link', { name: 'Start Stream' })).toHaveAttribute(
      'href',
      '/events/1/stream',
    );
    expect(within(comingUp).getByRole('link', { name: 'Analytics' })).toHaveAttribute(
      'href',
      '/creators/dashboard/events/1/analytics',
    );

    const paused = screen.getByRole('article', { name: 'Paused' });
    expect(within(paused).getByText('Inactive')).toBeInTheDocument();
    expect(within(paused).getByRole('link', { name: 'Edit Event' })).toBeInTheDocument();
    expect(within(paused).queryByRole('link', { name: 'Start Stream' })).not.toBeInTheDocument();

    const past = screen.getByRole('article', { name: 'Last Week' });
    expect(within(past).queryByRole('link', { name: 'Edit Event' })).not.toBeInTheDocument();
    expect(within(past).getByRole('link', { name: 'Start Stream' })).toBeInTheDocument();
    expect(within(past).getByRole('link', { name: 'Attendees' })).toBeInTheDocument();
    expect(within(past).getByRole('button', { name: 'Delete event Last Week' })).toBeInTheDocument();
  });

  it('shows every event of a creator with more than a page of them, the next page as the end of the list scrolls into view', async () => {
    const scrollIntoView = stubIntersectionObserver();
    const events = shows(1, CREATOR_EVENTS_PAGE_SIZE + 3);
    const calls = stubApi({ ...signedInAs(creator), [myEvents]: pagesOf(events) });
    renderApp('/creators/dashboard/my-events');

    expect(await screen.findAllByRole('article')).toHaveLength(CREATOR_EVENTS_PAGE_SIZE);
    expect(pagesAskedFor(calls)).toEqual([`limit=${CREATOR_EVENTS_PAGE_SIZE}&offset=0`]);
    scrollIntoView();

    const last = `Show ${CREATOR_EVENTS_PAGE_SIZE + 3}`;
    expect(await screen.findByRole('article', { name: last })).toBeInTheDocument();
    // In the order the server lists them, the first page's first.
    expect(shownEvents()).toEqual(events.map(({ name }) => name));
    expect(pagesAskedFor(calls)).toEqual([
      `limit=${CREATOR_EVENTS_PAGE_SIZE}&offset=0`,
      `limit=${CREATOR_EVENTS_PAGE_SIZE}&offset=${CREATOR_EVENTS_PAGE_SIZE}`,
    ]);
    // A short page is the last: nothing more to load.
    expect(screen.queryByRole('button', { name: 'Load more events' })).not.toBeInTheDocument();
  });

  it('loads the next page on "Load more events", until a page comes back empty', async () => {
    const events = shows(1, 2 * CREATOR_EVENTS_PAGE_SIZE);
    const calls = stubApi({ ...signedInAs(creator), [myEvents]: pagesOf(events) });
    const { user } = renderApp('/creators/dashboard/my-events');
    expect(await screen.findAllByRole('article')).toHaveLength(CREATOR_EVENTS_PAGE_SIZE);

    await user.click(screen.getByRole('button', { name: 'Load more events' }));

    expect(
      await screen.findByRole('article', { name: `Show ${2 * CREATOR_EVENTS_PAGE_SIZE}` }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(2 * CREATOR_EVENTS_PAGE_SIZE);
    // A full page may not be the last: only an empty one says so.
    await user.click(screen.getByRole('button', { name: 'Load more events' }));

    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Load more events' })).not.toBeInTheDocument(),
    );
    expect(screen.getAllByRole('article')).toHaveLength(2 * CREATOR_EVENTS_PAGE_SIZE);
    expect(pagesAskedFor(calls)).toEqual(
      [0, 1, 2].map((page) => `limit=${CREATOR_EVENTS_PAGE_SIZE}&offset=${page * CREATOR_EVENTS_PAGE_SIZE}`),
    );
  });

  it("says 'You haven't created any events yet.' and links to the create form", async () => {
    stubApi({ ...signedInAs(creator), [myEvents]: { body: [] } });
    renderApp('/creators/dashboard/my-events');

    expect(await screen.findByText("You haven't created any events yet.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create your first event' })).toHaveAttribute(
      'href',
      '/creators/dashboard/events/create',
    );
  });

  it('says the events could not be loaded, not that there are none, and lists them after "Try again"', async () => {
    let failing = true;
    stubApi({
      ...signedInAs(creator),
      [myEvents]: () =>
        failing
          ? { status: 403, body: { statusCode: 403, code: 'FORBIDDEN', message: 'Events are resting' } }
          : { body: [anEvent({ name: 'Back Again' })] },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    // The failed load opens the Error modal (spec §4) and leaves its message and a retry on the page.
    const modal = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(modal).getByText('Events are resting')).toBeInTheDocument();
    await user.click(within(modal).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Events are resting');
    expect(screen.queryByText("You haven't created any events yet.")).not.toBeInTheDocument();

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('article', { name: 'Back Again' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the server's refusal to delete in the Error modal, and keeps the event", async () => {
    const refusal = 'This event has ticket sales and cannot be deleted. Set it inactive instead.';
    const calls = stubApi({
      ...signedInAs(creator),
      [myEvents]: { body: [anEvent({ id: 5, name: 'Sold Some' })] },
      'DELETE /events/5': { status: 409, body: { statusCode: 409, code: 'CONFLICT', message: refusal } },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Delete event Sold Some' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete Event' });
    expect(
      within(confirm).getByText('Are you sure you want to delete the event "Sold Some"?'),
    ).toBeInTheDocument();
    expect(within(confirm).getByText('This action cannot be undone.')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    const error = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(error).getByText(refusal)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Delete Event' })).not.toBeInTheDocument();
    await user.click(within(error).getByRole('button', { name: 'OK' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Sold Some' })).toBeInTheDocument();
    expect(calls.filter(({ method }) => method === 'DELETE')).toHaveLength(1);
  });

  it("says 'Error deleting event' when the server gives no reason", async () => {
    stubApi({
      ...signedInAs(creator),
      [myEvents]: { body: [anEvent({ id: 5, name: 'Sold Some' })] },
      'DELETE /events/5': { status: 400 },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Delete event Sold Some' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    expect(
      within(await screen.findByRole('dialog', { name: 'Error' })).getByText('Error deleting event'),
    ).toBeInTheDocument();
  });

  it('deletes after confirmation and reloads the list without the event', async () => {
    let events = [anEvent({ id: 5, name: 'Unsold' }), anEvent({ id: 6, name: 'Keeper' })];
    stubApi({
      ...signedInAs(creator),
      [myEvents]: () => ({ body: events }),
      'DELETE /events/5': () => {
        events = events.filter(({ id }) => id !== 5);
        return { status: 204 };
      },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Delete event Unsold' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByRole('article', { name: 'Unsold' })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Keeper' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('offers Delete replay on an event with a replay, and deletes it after confirmation', async () => {
    let events = [
      anEvent({ id: 5, name: 'Recorded', date: daysFromNow(-1), hasReplay: true }),
      anEvent({ id: 6, name: 'Unrecorded', date: daysFromNow(-1) }),
    ];
    const calls = stubApi({
      ...signedInAs(creator),
      [myEvents]: () => ({ body: events }),
      'DELETE /events/5/replay': () => {
        events = events.map((event) => (event.id === 5 ? { ...event, hasReplay: false } : event));
        return { status: 204 };
      },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    const recorded = await screen.findByRole('article', { name: 'Recorded' });
    expect(
      within(screen.getByRole('article', { name: 'Unrecorded' })).queryByRole('button', {
        name: 'Delete replay',
      }),
    ).not.toBeInTheDocument();
    await user.click(within(recorded).getByRole('button', { name: 'Delete replay' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete the replay?' });
    // Kept: nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Keep the replay' }));
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);

    await user.click(within(recorded).getByRole('button', { name: 'Delete replay' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete replay' }));
    expect(await screen.findByText('Replay deleted.')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(recorded).queryByRole('button', { name: 'Delete replay' })).not.toBeInTheDocument(),
    );
  });

  it('leaves the event alone when the creator cancels', async () => {
    const calls = stubApi({
      ...signedInAs(creator),
      [myEvents]: { body: [anEvent({ id: 5, name: 'Unsold' })] },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Delete event Unsold' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });

  it('offers Cancel until the event ends, and a cancelled event only View, Analytics and Delete', async () => {
    stubApi({
      ...signedInAs(creator),
      [myEvents]: {
        body: [
          anEvent({ id: 1, name: 'Coming Up', date: daysFromNow(3) }),
          anEvent({ id: 2, name: 'On Now', date: hoursFromNow(-1) }),
          anEvent({ id: 3, name: 'Over', date: hoursFromNow(-2) }),
          anEvent({ id: 4, name: 'Called Off', date: daysFromNow(3), cancelledAt: daysFromNow(-1) }),
        ],
      },
    });
    renderApp('/creators/dashboard/my-events');

    const comingUp = await screen.findByRole('article', { name: 'Coming Up' });
    expect(within(comingUp).getByRole('button', { name: 'Cancel event' })).toBeInTheDocument();
    const onNow = screen.getByRole('article', { name: 'On Now' });
    expect(within(onNow).getByRole('button', { name: 'Cancel event' })).toBeInTheDocument();
    const over = screen.getByRole('article', { name: 'Over' });
    expect(within(over).queryByRole('button', { name: 'Cancel event' })).not.toBeInTheDocument();

    const calledOff = screen.getByRole('article', { name: 'Called Off' });
    expect(within(calledOff).getByText('Cancelled')).toBeInTheDocument();
    expect(within(calledOff).queryByText('Active')).not.toBeInTheDocument();
    expect(within(calledOff).queryByRole('link', { name: 'Edit Event' })).not.toBeInTheDocument();
    expect(within(calledOff).queryByRole('link', { name: 'Start Stream' })).not.toBeInTheDocument();
    expect(within(calledOff).queryByRole('button', { name: 'Cancel event' })).not.toBeInTheDocument();
    expect(within(calledOff).getByRole('link', { name: 'View' })).toBeInTheDocument();
    expect(within(calledOff).getByRole('link', { name: 'Analytics' })).toBeInTheDocument();
    expect(within(calledOff).getByRole('button', { name: 'Delete event Called Off' })).toBeInTheDocument();
  });

  it('cancels a distant event without a penalty, says how many orders were refunded and reloads', async () => {
    let events = [anEvent({ id: 5, name: 'Far Off', date: daysFromNow(7) })];
    const calls = stubApi({
      ...signedInAs(creator),
      [myEvents]: () => ({ body: events }),
      'POST /events/5/cancel': () => {
        events = events.map((event) => ({ ...event, cancelledAt: new Date().toISOString() }));
        return { body: { refundedOrders: 3, refunded: 75, penalty: 0 } };
      },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    const card = await screen.findByRole('article', { name: 'Far Off' });
    await user.click(within(card).getByRole('button', { name: 'Cancel event' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel Event' });
    expect(within(dialog).getByText(cancelText('Far Off'))).toBeInTheDocument();
    expect(within(dialog).queryByText(/penalty/)).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel Event' }));

    expect(await screen.findByText('Event cancelled. 3 order(s) refunded.')).toBeInTheDocument();
    expect(await within(card).findByText('Cancelled')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter(({ method }) => method === 'POST').map(({ path }) => path)).toEqual([
      '/events/5/cancel',
    ]);
    expect(calls.some(({ path }) => path === '/earnings')).toBe(false);
  });

  it('warns of the 5% penalty, with its amount, for an event starting within 24 hours', async () => {
    const calls = stubApi({
      ...signedInAs(creator),
      [myEvents]: { body: [anEvent({ id: 6, name: 'Late Show', date: hoursFromNow(2) })] },
      'GET /earnings': { body: earningsWith(salesOf(6, 200)) },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Cancel event' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel Event' });
    expect(within(dialog).getByText(cancelText('Late Show'))).toBeInTheDocument();
    expect(
      await within(dialog).findByText(
        'It starts in less than 24 hours, so a penalty of 5% of its ticket sales ($10.00) will be charged to your balance.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Keep Event' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some(({ method }) => method === 'POST')).toBe(false);
  });

  it('warns of the penalty without an amount while the sales cannot be read', async () => {
    stubApi({
      ...signedInAs(creator),
      [myEvents]: { body: [anEvent({ id: 6, name: 'Late Show', date: hoursFromNow(2) })] },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Cancel event' }));

    expect(
      await screen.findByText(
        'It starts in less than 24 hours, so a penalty of 5% of its ticket sales will be charged to your balance.',
      ),
    ).toBeInTheDocument();
  });

  it("shows the server's refusal to cancel in the Error modal", async () => {
    const refusal = 'This event has already ended';
    stubApi({
      ...signedInAs(creator),
      [myEvents]: { body: [anEvent({ id: 5, name: 'Far Off' })] },
      'POST /events/5/cancel': {
        status: 409,
        body: { statusCode: 409, code: 'CONFLICT', message: refusal },
      },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Cancel event' }));
    await user.click(screen.getByRole('button', { name: 'Cancel Event' }));

    const error = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(error).getByText(refusal)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Cancel Event' })).not.toBeInTheDocument();
  });
});
