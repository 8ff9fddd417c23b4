import type { WaitlistPlace } from '@stagedoor/shared/waitlist';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  aCreator,
  anEvent,
  anOrder,
  aTicketType,
  aUser,
  signedInAs,
  stubApi,
  type ApiCall,
} from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const NOT_IN_LINE: WaitlistPlace = { status: 'none', quantity: null, position: null, offer: null };

const waiting = (position: number, quantity: number): WaitlistPlace => ({
  status: 'waiting',
  quantity,
  position,
  offer: null,
});

/** Two tickets held for the fan until 11:00 UTC on the day the test's clock reads (10:00 UTC). */
const offered = (offer: Partial<NonNullable<WaitlistPlace['offer']>> = {}): WaitlistPlace => ({
  status: 'offered',
  quantity: 2,
  position: null,
  offer: {
    orderId: 31,
    expiresAt: '2030-03-05T11:00:00.000Z',
    ticketType: 'General admission',
    total: 50,
    ...offer,
  },
});

/** The clock at 10:00 UTC on March 5, 2030; timers stay real. */
function clockAt10() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2030-03-05T10:00:00.000Z'));
}

/** A signed-in fan holding no ticket to the event yet. */
const aFan = (overrides: Parameters<typeof aUser>[0] = {}) => ({
  ...signedInAs(aUser(overrides)),
  'GET /orders/summary': { body: { orders: 0, tickets: 0 } },
});

const soldOut = () => anEvent({ ticketsLeft: 0, maxPerBuyer: 4 });

const waitlistCalls = (calls: ApiCall[], method: string) =>
  calls.filter((call) => call.method === method && call.path === '/events/4/waitlist');

/** The browser's location with `assign` recorded instead of followed (jsdom cannot leave the page). */
function stubLocationAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

const conflict = (message: string, fields?: Record<string, string>) => ({
  status: 409,
  body: { statusCode: 409, code: 'CONFLICT', message, ...(fields ? { fields } : {}) },
});

describe('the waitlist of a sold-out event', () => {
  it('lets a fan join it for the tickets they choose, then shows their place in line', async () => {
    let place = NOT_IN_LINE;
    const calls = stubApi({
      ...aFan(),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': () => ({ body: place }),
      'POST /events/4/waitlist': ({ body }) => {
        place = waiting(3, (body as { quantity: number }).quantity);
        return { status: 201, body: place };
      },
    });
    const { user } = renderApp('/events/4');

    expect(await screen.findByText('Sold out: every ticket has been sold.')).toBeInTheDocument();
    const line = await screen.findByRole('form', { name: 'Waitlist' });
    expect(screen.queryByRole('button', { name: 'Purchase Ticket' })).not.toBeInTheDocument();
    await user.click(within(line).getByRole('button', { name: 'Increase quantity' }));
    await user.click(within(line).getByRole('button', { name: 'Join the waitlist' }));

    expect(
      await screen.findByText(
        'You are on the waitlist: number 3 in line for 2 tickets. We will email you if tickets come back.',
      ),
    ).toBeInTheDocument();
    expect(waitlistCalls(calls, 'POST').map(({ body }) => body)).toEqual([{ quantity: 2 }]);
    expect(screen.queryByRole('form', { name: 'Waitlist' })).not.toBeInTheDocument();
  });

  it('counts up to the per-buyer limit only, less the tickets the fan holds', async () => {
    stubApi({
      ...aFan(),
      'GET /events/4': { body: anEvent({ ticketsLeft: 0, maxPerBuyer: 3 }) },
      'GET /events/4/waitlist': { body: NOT_IN_LINE },
      'GET /orders/summary': { body: { orders: 1, tickets: 1 } },
    });
    const { user } = renderApp('/events/4');

    await screen.findByRole('heading', { name: 'You have 1 ticket' });
    const line = await screen.findByRole('form', { name: 'Waitlist' });
    await user.click(within(line).getByRole('button', { name: 'Increase quantity' }));
    expect(within(line).getByRole('button', { name: 'Increase quantity' })).toBeDisabled();
    expect(within(line).getByLabelText('Quantity')).toHaveTextContent('2');
  });

  it("shows the server's refusal by the quantity, until the fan changes it", async () => {
    const limit = 'You may hold at most 4 tickets to this event';
    stubApi({
      ...aFan(),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': { body: NOT_IN_LINE },
      'POST /events/4/waitlist': conflict(limit, { quantity: limit }),
    });
    const { user } = renderApp('/events/4');

    const line = await screen.findByRole('form', { name: 'Waitlist' });
    await user.click(within(line).getByRole('button', { name: 'Join the waitlist' }));

    expect(await within(line).findByText(limit)).toBeInTheDocument();
    // Said by the field, not in a toast as well.
    expect(screen.getAllByText(limit)).toHaveLength(1);
    await user.click(within(line).getByRole('button', { name: 'Increase quantity' }));
    expect(within(line).queryByText(limit)).not.toBeInTheDocument();
  });

  it('says a refusal of no field in a toast, and shows the place as it now stands', async () => {
    let place = NOT_IN_LINE;
    stubApi({
      ...aFan(),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': () => ({ body: place }),
      'POST /events/4/waitlist': () => {
        // Joined meanwhile, in another tab.
        place = waiting(1, 1);
        return conflict('You are already on the waitlist for this event');
      },
    });
    const { user } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'Join the waitlist' }));

    expect(await screen.findByText('You are already on the waitlist for this event')).toBeInTheDocument();
    expect(
      await screen.findByText(/^You are on the waitlist: number 1 in line for 1 ticket\./),
    ).toBeInTheDocument();
  });

  it('lets a fan in line leave it, and join again', async () => {
    let place = waiting(2, 1);
    const calls = stubApi({
      ...aFan(),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': () => ({ body: place }),
      'DELETE /events/4/waitlist': () => {
        place = NOT_IN_LINE;
        return { status: 204 };
      },
    });
    const { user } = renderApp('/events/4');

    expect(
      await screen.findByText(
        'You are on the waitlist: number 2 in line for 1 ticket. We will email you if tickets come back.',
      ),
    ).toHaveAttribute('role', 'status');
    await user.click(screen.getByRole('button', { name: 'Leave the waitlist' }));

    expect(await screen.findByText('You left the waitlist.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Join the waitlist' })).toBeEnabled();
    expect(waitlistCalls(calls, 'DELETE')).toHaveLength(1);
  });

  it('sends a visitor through registration, or a sign-in, back to the event page', async () => {
    stubApi({ 'GET /events/4': { body: soldOut() } });
    const { user, location } = renderApp('/events/4');

    // A fan with an account (and maybe a place, or tickets held) signs in and comes back here.
    expect(await screen.findByRole('link', { name: 'Sign in' })).toHaveAttribute(
      'href',
      '/user/login?redirect=%2Fevents%2F4',
    );
    await user.click(screen.getByRole('link', { name: 'Join the waitlist' }));

    expect(location()).toBe('/user/register?redirect=%2Fevents%2F4');
  });

  it("asks a visitor opening their turn's mail to sign in, even when tickets are on sale again", async () => {
    stubApi({ 'GET /events/4': { body: anEvent({ ticketsLeft: 3 }) } });
    const { user, location } = renderApp('/events/4?held');

    expect(
      await screen.findByText('Tickets held for you on the waitlist? Sign in to buy them.'),
    ).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Join the waitlist' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Sign in' }));

    expect(location()).toBe('/user/login?redirect=%2Fevents%2F4');
  });

  it('offers no line while tickets are on sale, nor to the creator, nor for an event that no longer sells', async () => {
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'GET /events/4': { body: soldOut() },
      'GET /events/5': { body: anEvent({ id: 5, ticketsLeft: 0, cancelledAt: '2030-01-01T00:00:00.000Z' }) },
      'GET /events/6': { body: anEvent({ id: 6, creatorId: 8 }) },
      'GET /events/6/waitlist': { body: NOT_IN_LINE },
      'GET /orders/summary': { body: { orders: 0, tickets: 0 } },
    });
    // Grace's own event.
    const own = renderApp('/events/4');
    await within(own.container).findByText('Sold out: every ticket has been sold.');
    expect(
      within(own.container).queryByRole('button', { name: 'Join the waitlist' }),
    ).not.toBeInTheDocument();
    own.unmount();

    const cancelled = renderApp('/events/5');
    await within(cancelled.container).findByText('This event was cancelled. Every buyer has been refunded.');
    expect(within(cancelled.container).queryByText(/waitlist/)).not.toBeInTheDocument();
    cancelled.unmount();

    // Another creator's, on sale: her place is read (tickets may be held for her), no line offered.
    const onSale = renderApp('/events/6');
    await within(onSale.container).findByRole('button', { name: 'Purchase Ticket' });
    await waitFor(() => expect(calls.some(({ path }) => path === '/events/6/waitlist')).toBe(true));
    expect(within(onSale.container).queryByText(/waitlist/)).not.toBeInTheDocument();
    expect(calls.filter(({ path }) => /^\/events\/[45]\/waitlist$/.test(path))).toEqual([]);
  });

  it('says so when the place cannot be read, and shows it after "Try again"', async () => {
    let failing = true;
    stubApi({
      ...aFan(),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': () =>
        failing
          ? { status: 403, body: { statusCode: 403, code: 'FORBIDDEN', message: 'No' } }
          : { body: waiting(1, 1) },
    });
    const { user } = renderApp('/events/4');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your place on the waitlist could not be loaded.');
    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByText(/^You are on the waitlist: number 1 in line/)).toBeInTheDocument();
  });
});

describe('tickets held for a fan on the waitlist', () => {
  it("shows them until when, in the fan's time zone, their type and total, also once others are on sale", async () => {
    clockAt10();
    stubApi({
      ...aFan({ timeZone: 'America/Los_Angeles' }),
      'GET /events/4': {
        body: anEvent({
          ticketsLeft: 5,
          ticketTypes: [aTicketType({ name: 'Balcony', ticketsLeft: 5 })],
        }),
      },
      'GET /events/4/waitlist': { body: offered({ ticketType: 'Balcony', total: 30 }) },
    });
    renderApp('/events/4');

    const held = await screen.findByRole('region', { name: '2 tickets held for you until 3:00 AM PST' });
    expect(within(held).getByText('Balcony')).toBeInTheDocument();
    expect(within(held).getByText('$30.00')).toBeInTheDocument();
    expect(within(held).getByRole('button', { name: 'Buy now' })).toBeEnabled();
    expect(within(held).getByRole('button', { name: 'No thanks' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Purchase Ticket' })).toBeInTheDocument();
  });

  it("names no type when they are the event's one, and the day when the hold ends on another", async () => {
    clockAt10();
    stubApi({
      ...aFan({ timeZone: 'Asia/Tokyo' }),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': { body: offered({ expiresAt: '2030-03-05T16:00:00.000Z' }) },
    });
    renderApp('/events/4');

    // 10:00 UTC is 19:00 in Tokyo: the hold ends at 1:00 AM there, the next day.
    const held = await screen.findByRole('region', {
      name: '2 tickets held for you until Mar 6, 2030, 1:00 AM GMT+9',
    });
    expect(within(held).queryByText('Ticket type')).not.toBeInTheDocument();
    expect(within(held).getByText('$50.00')).toBeInTheDocument();
    // Not offered to join a line they are at the front of.
    expect(screen.queryByRole('button', { name: 'Join the waitlist' })).not.toBeInTheDocument();
  });

  it('buys them with "Buy now" and shows the confirmation of the completed order', async () => {
    clockAt10();
    const order = anOrder({ id: 31, quantity: 2, totalAmount: 50 });
    const calls = stubApi({
      ...aFan(),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': { body: offered() },
      'POST /orders/31/checkout': { body: order },
      'GET /orders/31': { body: order },
    });
    const { user, location } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'Buy now' }));

    expect(await screen.findByText('Tickets purchased successfully!')).toBeInTheDocument();
    expect(location()).toBe('/purchase-confirmation/4/2?order=31');
    expect(await screen.findByRole('heading', { name: 'Purchase Completed!' })).toBeInTheDocument();
    expect(calls.filter(({ path }) => path === '/orders/31/checkout')).toHaveLength(1);
  });

  it('sends the fan to the payment page when their order is paid there', async () => {
    clockAt10();
    const assign = stubLocationAssign();
    const checkoutUrl = 'https://checkout.stripe.com/c/pay/cs_test_31';
    stubApi({
      ...aFan(),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': { body: offered() },
      'POST /orders/31/checkout': {
        body: anOrder({ id: 31, status: 'pending', checkoutUrl, expiresAt: '2030-03-05T10:30:00.000Z' }),
      },
    });
    const { user, location } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'Buy now' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(checkoutUrl));
    expect(location()).toBe('/events/4');
  });

  it('says when the hold has ended, and shows the place as it now stands', async () => {
    clockAt10();
    let place = offered();
    stubApi({
      ...aFan(),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': () => ({ body: place }),
      'POST /orders/31/checkout': () => {
        place = NOT_IN_LINE;
        return conflict('These tickets are no longer held for you');
      },
    });
    const { user } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'Buy now' }));

    expect(await screen.findByText('These tickets are no longer held for you')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Join the waitlist' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Buy now' })).not.toBeInTheDocument();
  });

  it('lets them go with "No thanks"', async () => {
    clockAt10();
    let place = offered();
    const calls = stubApi({
      ...aFan(),
      'GET /events/4': { body: soldOut() },
      'GET /events/4/waitlist': () => ({ body: place }),
      'DELETE /events/4/waitlist': () => {
        place = NOT_IN_LINE;
        return { status: 204 };
      },
    });
    const { user } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'No thanks' }));

    expect(await screen.findByText('The tickets are no longer held for you.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Buy now' })).not.toBeInTheDocument());
    expect(waitlistCalls(calls, 'DELETE')).toHaveLength(1);
    expect(calls.some(({ path }) => path === '/orders/31/checkout')).toBe(false);
  });
});
