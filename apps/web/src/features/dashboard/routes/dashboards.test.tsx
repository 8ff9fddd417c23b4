import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CREATOR_EVENTS_PAGE_SIZE } from '../../../lib/reads';
import {
  aCreator,
  anEvent,
  aUser,
  daysFromNow,
  heldReply,
  pagesOf,
  signedInAs,
  stubApi,
} from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

function card(label: string) {
  return screen.getByRole('region', { name: label });
}

describe('user dashboard', () => {
  it('greets the user by email and counts their orders, linking to their tickets', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders/summary': ({ query }) => ({ body: { orders: query.has('eventId') ? 0 : 2, tickets: 3 } }),
    });
    renderApp('/user/dashboard');

    expect(await screen.findByText('Welcome back, ada@example.com')).toBeInTheDocument();
    const tickets = await screen.findByRole('link', { name: /My Tickets\s*2/ });
    expect(tickets).toHaveAttribute('href', '/user/dashboard/my-tickets');
    expect(screen.getByRole('link', { name: 'Edit Profile' })).toHaveAttribute(
      'href',
      '/user/dashboard/profile',
    );
  });

  it('shows a placeholder, not a zero, while the orders load', async () => {
    const summary = heldReply();
    stubApi({ ...signedInAs(aUser()), 'GET /orders/summary': summary.handler });
    renderApp('/user/dashboard');

    const tickets = await screen.findByRole('link', { name: /My Tickets/ });
    expect(tickets).toHaveTextContent('Loading');
    expect(tickets).not.toHaveTextContent('0');

    summary.send({ body: { orders: 0, tickets: 0 } });
    expect(await screen.findByRole('link', { name: /My Tickets\s*0/ })).toBeInTheDocument();
  });

  it('says the tickets could not be counted, and counts them after "Try again"', async () => {
    let failing = true;
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders/summary': () =>
        failing
          ? { status: 403, body: { statusCode: 403, code: 'FORBIDDEN', message: 'No' } }
          : { body: { orders: 1, tickets: 2 } },
    });
    const { user } = renderApp('/user/dashboard');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching orders');
    expect(screen.queryByRole('link', { name: /My Tickets/ })).not.toBeInTheDocument();

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('link', { name: /My Tickets\s*1/ })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('creator dashboard', () => {
  it('fills the stat cards from the stats and the creator events', async () => {
    const creator = aCreator();
    stubApi({
      ...signedInAs(creator),
      'GET /events/creator/stats': { body: { totalTicketsSold: 42, totalRevenue: 1234.5, totalEvents: 3 } },
      [`GET /events/creator/${creator.id}`]: {
        body: [
          anEvent({ id: 1, date: daysFromNow(1) }),
          anEvent({ id: 2, date: daysFromNow(2) }),
          anEvent({ id: 3, date: daysFromNow(-1) }),
        ],
      },
    });
    renderApp('/creators/dashboard');

    expect(await screen.findByText('$1,234.50 revenue')).toBeInTheDocument();
    expect(within(card('Tickets Sold')).getByText('42')).toBeInTheDocument();
    expect(within(card('Upcoming Events')).getByText('2')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /My Events\s*3/ })).toHaveAttribute(
      'href',
      '/creators/dashboard/my-events',
    );
    expect(screen.getByRole('link', { name: 'Create New Event' })).toHaveAttribute(
      'href',
      '/creators/dashboard/events/create',
    );
    expect(screen.getByRole('link', { name: 'Earnings' })).toHaveAttribute(
      'href',
      '/creators/dashboard/earnings',
    );
    expect(screen.getByRole('link', { name: 'Edit Profile' })).toHaveAttribute(
      'href',
      '/creators/dashboard/profile',
    );
  });

  it('shows placeholders, not zeros, while the stats load', async () => {
    const creator = aCreator();
    stubApi({
      ...signedInAs(creator),
      'GET /events/creator/stats': () => new Promise(() => {}),
      [`GET /events/creator/${creator.id}`]: { body: [] },
    });
    renderApp('/creators/dashboard');

    await screen.findByRole('heading', { name: 'Creator Dashboard' });
    for (const label of ['My Events', 'Upcoming Events', 'Tickets Sold']) {
      expect(card(label)).toHaveTextContent('Loading');
      expect(within(card(label)).queryByText('0')).not.toBeInTheDocument();
    }
    expect(screen.queryByText(/revenue/)).not.toBeInTheDocument();
  });

  it("says 'Error fetching creator stats' instead of zeros, and fills the cards after 'Try again'", async () => {
    const creator = aCreator();
    let failing = true;
    stubApi({
      ...signedInAs(creator),
      'GET /events/creator/stats': () =>
        failing
          ? {
              status: 403,
              body: { statusCode: 403, code: 'FORBIDDEN', message: 'Only creators have statistics' },
            }
          : { body: { totalTicketsSold: 5, totalRevenue: 50, totalEvents: 1 } },
      [`GET /events/creator/${creator.id}`]: { body: [anEvent({ date: daysFromNow(1) })] },
    });
    const { user } = renderApp('/creators/dashboard');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching creator stats');
    expect(screen.queryByText('$0.00 revenue')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Tickets Sold' })).not.toBeInTheDocument();

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByText('$50.00 revenue')).toBeInTheDocument();
    expect(within(card('Tickets Sold')).getByText('5')).toBeInTheDocument();
    expect(within(card('Upcoming Events')).getByText('1')).toBeInTheDocument();
  });

  it('does not count a cancelled event as upcoming', async () => {
    const creator = aCreator();
    stubApi({
      ...signedInAs(creator),
      'GET /events/creator/stats': { body: { totalTicketsSold: 0, totalRevenue: 0, totalEvents: 2 } },
      [`GET /events/creator/${creator.id}`]: {
        body: [
          anEvent({ id: 1, date: daysFromNow(3) }),
          anEvent({ id: 2, date: daysFromNow(5), isActive: false, cancelledAt: new Date().toISOString() }),
        ],
      },
    });
    renderApp('/creators/dashboard');

    expect(await screen.findByText('$0.00 revenue')).toBeInTheDocument();
    expect(within(card('Upcoming Events')).getByText('1')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /My Events\s*2/ })).toBeInTheDocument();
  });

  it('counts the upcoming events over as many pages as they fill, reading none after the first past event', async () => {
    const creator = aCreator();
    const size = CREATOR_EVENTS_PAGE_SIZE;
    // As the server lists them: the upcoming events first, soonest first, then the past ones.
    const upcoming = Array.from({ length: size + 10 }, (_, index) =>
      anEvent({ id: index + 1, date: daysFromNow(index + 1) }),
    );
    const past = Array.from({ length: 2 * size }, (_, index) =>
      anEvent({ id: 1000 + index, date: daysFromNow(-index - 1) }),
    );
    const calls = stubApi({
      ...signedInAs(creator),
      'GET /events/creator/stats': {
        body: { totalTicketsSold: 0, totalRevenue: 0, totalEvents: 3 * size + 10 },
      },
      [`GET /events/creator/${creator.id}`]: pagesOf([...upcoming, ...past]),
    });
    renderApp('/creators/dashboard');

    const upcomingCard = await screen.findByRole('region', { name: 'Upcoming Events' });
    expect(await within(upcomingCard).findByText(String(size + 10))).toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: new RegExp(`My Events\\s*${3 * size + 10}`) }),
    ).toBeInTheDocument();
    expect(
      calls
        .filter(({ path }) => path === `/events/creator/${creator.id}`)
        .map(({ query }) => query.get('offset')),
    ).toEqual(['0', String(size)]);
  });

  it('asks for creator stats only for a creator', async () => {
    const calls = stubApi(signedInAs(aUser()));
    renderApp('/creators/dashboard');

    await screen.findByText('$0.00 revenue');
    expect(calls.map(({ path }) => path)).toEqual(['/auth/verify-token']);
  });
});
