import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CREATOR_EVENTS_PAGE_SIZE } from '../../../lib/reads';
import { aCreator, anEvent, aPublicCreator, aUser, signedInAs, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const notFound = { status: 404, body: { statusCode: 404, code: 'NOT_FOUND', message: 'Creator not found' } };

describe('public creator profile', () => {
  it('shows the creator and each event with its sold share, stock and buy link', async () => {
    stubApi({
      'GET /creators/profile/grace': {
        body: aPublicCreator({
          creatorInfo: {
            headerImageUrl: 'banner.png',
            profileImageUrl: null,
            biography: 'Compilers and COBOL.',
          },
        }),
      },
      'GET /creators/grace/events': {
        body: [anEvent({ id: 8, name: 'Jazz Night', price: 12.5, maxTickets: 40, ticketsLeft: 30 })],
      },
    });
    renderApp('/creator/grace');

    expect(await screen.findByText('Loading creator profile...')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByText('Compilers and COBOL.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Grace Hopper' })).toHaveTextContent('GH');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    expect(within(card).getByText('1h 30min')).toBeInTheDocument();
    expect(within(card).getByText('30 left')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar', { name: 'Tickets sold' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(within(card).getByRole('link', { name: 'Buy tickets - $ 12.50' })).toHaveAttribute(
      'href',
      '/events/8',
    );
  });

  it("says 'No events found for this creator.' when they have none", async () => {
    stubApi({
      'GET /creators/profile/grace': { body: aPublicCreator() },
      'GET /creators/grace/events': { body: [] },
    });
    renderApp('/creator/grace');

    expect(await screen.findByText('No events found for this creator.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says the events could not be loaded, not that there are none, and lists them after "Try again"', async () => {
    let failing = true;
    stubApi({
      'GET /creators/profile/grace': { body: aPublicCreator() },
      'GET /creators/grace/events': () => (failing ? notFound : { body: [anEvent({ name: 'Jazz Night' })] }),
    });
    const { user } = renderApp('/creator/grace');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching creator events');
    expect(screen.queryByText('No events found for this creator.')).not.toBeInTheDocument();

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('article', { name: 'Jazz Night' })).toBeInTheDocument();
  });

  it("shows an event's date in the visitor's time zone, naming it", async () => {
    stubApi({
      ...signedInAs(aUser({ timeZone: 'Europe/Madrid' })),
      'GET /creators/profile/grace': { body: aPublicCreator() },
      'GET /creators/grace/events': { body: [anEvent({ date: '2030-03-05T18:30:00.000Z' })] },
    });
    renderApp('/creator/grace');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    expect(within(card).getByText('March 5, 2030 at 7:30 PM GMT+1')).toBeInTheDocument();
  });

  it("says 'Creator not found' for an unknown nickname", async () => {
    stubApi({ 'GET /creators/profile/nobody': notFound });
    renderApp('/creator/nobody');

    expect(await screen.findByRole('heading', { name: 'Creator not found' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
  });

  it("says 'Failed to load creator profile' when the profile cannot be read, and shows it after 'Try again'", async () => {
    let failing = true;
    stubApi({
      'GET /creators/profile/grace': () =>
        failing
          ? { status: 403, body: { statusCode: 403, code: 'FORBIDDEN', message: 'Not now' } }
          : { body: aPublicCreator() },
      'GET /creators/grace/events': { body: [] },
    });
    const { user } = renderApp('/creator/grace');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load creator profile');
    expect(screen.queryByRole('heading', { name: 'Creator not found' })).not.toBeInTheDocument();

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
  });
});

describe('simple creator view', () => {
  it('titles the page with the user object email field and lists the events with their facts', async () => {
    const creator = aCreator({ email: 'Grace Hopper', biography: null });
    const calls = stubApi({
      'GET /users/3': { body: creator },
      'GET /events/creator/3': {
        body: [
          anEvent({ name: 'Jazz Night', price: 7, maxTickets: 40, eventDate: '2030-03-05T18:30:00.000Z' }),
        ],
      },
    });
    renderApp('/creators/dashboard/creator/3');

    expect(await screen.findByRole('heading', { level: 1, name: 'Grace Hopper' })).toBeInTheDocument();
    expect(screen.getByText('No biography available')).toBeInTheDocument();
    const card = screen.getByRole('article', { name: 'Jazz Night' });
    expect(within(card).getByText('Price').nextSibling).toHaveTextContent('$7.00');
    expect(within(card).getByText('Max Tickets').nextSibling).toHaveTextContent('40');
    expect(within(card).getByText('Date').nextSibling).toHaveTextContent('2030');
    expect(calls.map(({ path }) => path).sort()).toEqual(['/events/creator/3', '/users/3']);
    // The creator's first page of events, the API's own.
    expect(calls.find(({ path }) => path === '/events/creator/3')?.query.toString()).toBe(
      `limit=${CREATOR_EVENTS_PAGE_SIZE}&offset=0`,
    );
  });

  it("says 'Failed to load creator profile' when either read fails, and asks again for it on 'Try again'", async () => {
    let failing = true;
    const calls = stubApi({
      'GET /users/7': { body: aUser({ email: 'Ada Lovelace' }) },
      'GET /events/creator/7': () => (failing ? notFound : { body: [] }),
    });
    const { user } = renderApp('/creators/dashboard/creator/7');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load creator profile');

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Ada Lovelace' })).toBeInTheDocument();
    // Only the read that failed is made again.
    expect(calls.filter(({ path }) => path === '/users/7')).toHaveLength(1);
    expect(calls.filter(({ path }) => path === '/events/creator/7')).toHaveLength(2);
  });
});
