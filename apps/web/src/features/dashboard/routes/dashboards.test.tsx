import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCreator, aUser, signedInAs, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const dayMs = 24 * 60 * 60 * 1000;

function card(label: string) {
  return screen.getByText(label).parentElement as HTMLElement;
}

describe('user dashboard', () => {
  it('greets the user by email and counts their orders, linking to their tickets', async () => {
    stubApi({ ...signedInAs(aUser()), 'GET /orders': { body: [{ quantity: 2 }, { quantity: 1 }] } });
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
          { id: 1, date: new Date(Date.now() + dayMs).toISOString() },
          { id: 2, date: new Date(Date.now() + 2 * dayMs).toISOString() },
          { id: 3, date: new Date(Date.now() - dayMs).toISOString() },
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
    expect(screen.getByRole('link', { name: 'Edit Profile' })).toHaveAttribute(
      'href',
      '/creators/dashboard/profile',
    );
  });

  it('shows zeros and $0.00 revenue while the stats cannot be read', async () => {
    stubApi(signedInAs(aCreator()));
    renderApp('/creators/dashboard');

    expect(await screen.findByText('$0.00 revenue')).toBeInTheDocument();
    expect(within(card('Upcoming Events')).getByText('0')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks for creator stats only for a creator', async () => {
    const calls = stubApi(signedInAs(aUser()));
    renderApp('/creators/dashboard');

    await screen.findByText('$0.00 revenue');
    expect(calls.map(({ path }) => path)).toEqual(['/auth/verify-token']);
  });
});
