import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCreator, anEvent, anOrder, aUser, daysFromNow, signedInAs, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

function card(label: string) {
  return screen.getByRole('region', { name: label });
}

describe('user dashboard', () => {
  it('greets the user by email and counts their orders, linking to their tickets', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders': { body: [anOrder({ quantity: 2 }), anOrder({ id: 12, quantity: 1 })] },
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

  it('shows zero tickets, without complaint, while orders cannot be read', async () => {
    stubApi(signedInAs(aUser()));
    renderApp('/user/dashboard');

    expect(await screen.findByRole('link', { name: /My Tickets\s*0/ })).toBeInTheDocument();
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

  it("shows zeros and says 'Error fetching creator stats' when the stats cannot be read", async () => {
    stubApi({
      ...signedInAs(aCreator()),
      'GET /events/creator/stats': {
        status: 403,
        body: { statusCode: 403, code: 'FORBIDDEN', message: 'Only creators have statistics' },
      },
    });
    renderApp('/creators/dashboard');

    expect(await screen.findByText('Error fetching creator stats')).toBeInTheDocument();
    expect(within(card('Tickets Sold')).getByText('$0.00 revenue')).toBeInTheDocument();
    expect(within(card('Upcoming Events')).getByText('0')).toBeInTheDocument();
  });

  it('asks for creator stats only for a creator', async () => {
    const calls = stubApi(signedInAs(aUser()));
    renderApp('/creators/dashboard');

    await screen.findByText('$0.00 revenue');
    expect(calls.map(({ path }) => path)).toEqual(['/auth/verify-token']);
  });
});
