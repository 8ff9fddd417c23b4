import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { anOrder, aUser, signedInAs, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { ORDERS_PAGE_SIZE } from '../../../lib/reads';

describe('my tickets', () => {
  it('shows the newest orders first and the next page on "Load more tickets", until a short page', async () => {
    const orders = (from: number, count: number) =>
      Array.from({ length: count }, (_, index) =>
        anOrder({
          id: from + index,
          event: {
            id: from + index,
            name: `Show ${from + index}`,
            image: null,
            date: '2030-03-05T18:30:00.000Z',
            hasReplay: false,
          },
        }),
      );
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /orders': ({ query }) => {
        const offset = Number(query.get('offset'));
        return { body: offset === 0 ? orders(1, ORDERS_PAGE_SIZE) : orders(offset + 1, 3) };
      },
    });
    const { user } = renderApp('/user/dashboard/my-tickets');

    expect(await screen.findAllByRole('article')).toHaveLength(ORDERS_PAGE_SIZE);
    await user.click(screen.getByRole('button', { name: 'Load more tickets' }));

    expect(await screen.findByRole('article', { name: `Show ${ORDERS_PAGE_SIZE + 3}` })).toBeInTheDocument();
    expect(screen.getAllByRole('article')).toHaveLength(ORDERS_PAGE_SIZE + 3);
    expect(calls.filter(({ path }) => path === '/orders').map(({ query }) => query.toString())).toEqual([
      `limit=${ORDERS_PAGE_SIZE}&offset=0`,
      `limit=${ORDERS_PAGE_SIZE}&offset=${ORDERS_PAGE_SIZE}`,
    ]);
    expect(screen.queryByRole('button', { name: 'Load more tickets' })).not.toBeInTheDocument();
  });

  it('shows each order as a completed ticket with its count, total and links', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders': {
        body: [
          anOrder({
            quantity: 2,
            totalAmount: 50,
            event: {
              id: 4,
              name: 'Jazz Night',
              image: null,
              date: '2030-03-05T18:30:00.000Z',
              hasReplay: false,
            },
          }),
        ],
      },
    });
    renderApp('/user/dashboard/my-tickets');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    expect(within(card).getByText('Completed')).toBeInTheDocument();
    expect(within(card).getByText('2 tickets')).toBeInTheDocument();
    expect(within(card).getByText('50.00')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Total in euros' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Ver Detalles' })).toHaveAttribute('href', '/events/4');
    expect(within(card).getByRole('link', { name: 'Acceder al Stream' })).toHaveAttribute(
      'href',
      '/events/4/stream',
    );
    expect(within(card).queryByRole('link', { name: 'Watch the replay' })).not.toBeInTheDocument();
  });

  it('names the ticket type of an event with several and the promo code used; a free order says Free', async () => {
    const event = {
      id: 4,
      name: 'Jazz Night',
      image: null,
      date: '2030-03-05T18:30:00.000Z',
      hasReplay: false,
    };
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders': {
        body: [
          anOrder({
            id: 1,
            ticketType: 'Early bird',
            promoCode: 'SPRING',
            discount: 6,
            totalAmount: 24,
            event,
          }),
          anOrder({ id: 2, quantity: 1, totalAmount: 0, event: { ...event, id: 5, name: 'Open Mic' } }),
        ],
      },
    });
    renderApp('/user/dashboard/my-tickets');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    expect(within(card).getByText('2 tickets · Early bird')).toBeInTheDocument();
    expect(within(card).getByText('Promo code SPRING: −$6.00')).toBeInTheDocument();
    expect(within(card).getByText('24.00')).toBeInTheDocument();
    const free = screen.getByRole('article', { name: 'Open Mic' });
    expect(within(free).getByText('1 ticket')).toBeInTheDocument();
    expect(within(free).getByText('Free')).toBeInTheDocument();
    expect(within(free).queryByText(/Promo code/)).not.toBeInTheDocument();
  });

  it('offers "Watch the replay" on a ticket whose show has a replay ready, and only there', async () => {
    const past = '2026-03-05T18:30:00.000Z';
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders': {
        body: [
          anOrder({ id: 1, event: { id: 4, name: 'Replayed', image: null, date: past, hasReplay: true } }),
          anOrder({
            id: 2,
            event: { id: 5, name: 'Not recorded', image: null, date: past, hasReplay: false },
          }),
          anOrder({
            id: 3,
            givenTo: 'bo@example.com',
            event: { id: 6, name: 'Given away', image: null, date: past, hasReplay: true },
          }),
        ],
      },
    });
    renderApp('/user/dashboard/my-tickets');

    const replayed = await screen.findByRole('article', { name: 'Replayed' });
    expect(within(replayed).getByRole('link', { name: 'Watch the replay' })).toHaveAttribute(
      'href',
      '/events/4/stream',
    );
    for (const name of ['Not recorded', 'Given away']) {
      const card = screen.getByRole('article', { name });
      expect(within(card).queryByRole('link', { name: 'Watch the replay' })).not.toBeInTheDocument();
    }
  });

  it('badges each order by its status: only a completed one opens the stream, a pending one can be paid', async () => {
    const event = (id: number, name: string) => ({
      id,
      name,
      image: null,
      date: '2030-03-05T18:30:00.000Z',
      hasReplay: false,
    });
    const checkoutUrl = 'https://checkout.stripe.com/c/pay/cs_test_1';
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders': {
        body: [
          anOrder({ id: 1, status: 'completed', event: event(1, 'Paid Show') }),
          anOrder({
            id: 2,
            status: 'pending',
            checkoutUrl,
            expiresAt: '2030-03-01T10:30:00.000Z',
            event: event(2, 'Paying Show'),
          }),
          anOrder({ id: 8, status: 'pending', event: event(8, 'Clearing Show') }),
          anOrder({ id: 3, status: 'expired', event: event(3, 'Lapsed Show') }),
          anOrder({
            id: 4,
            status: 'refunded',
            refundStatus: 'succeeded',
            event: event(4, 'Called-off Show'),
          }),
          anOrder({ id: 5, status: 'refunded', refundStatus: 'pending', event: event(5, 'Refunding Show') }),
          anOrder({ id: 6, status: 'refunded', refundStatus: 'failed', event: event(6, 'Bounced Show') }),
          anOrder({ id: 7, status: 'disputed', event: event(7, 'Charged-back Show') }),
        ],
      },
    });
    renderApp('/user/dashboard/my-tickets');

    const paid = await screen.findByRole('article', { name: 'Paid Show' });
    expect(within(paid).getByText('Completed')).toBeInTheDocument();
    expect(within(paid).getByRole('link', { name: 'Acceder al Stream' })).toBeInTheDocument();
    expect(within(paid).queryByRole('link', { name: 'Finish payment' })).not.toBeInTheDocument();

    const paying = screen.getByRole('article', { name: 'Paying Show' });
    expect(within(paying).getByText('Pending payment')).toBeInTheDocument();
    expect(within(paying).getByRole('link', { name: 'Finish payment' })).toHaveAttribute('href', checkoutUrl);
    expect(within(paying).queryByRole('link', { name: 'Acceder al Stream' })).not.toBeInTheDocument();

    for (const [name, badge] of [
      ['Lapsed Show', 'Expired'],
      ['Called-off Show', 'Refunded'],
      // Refunded only once the money was sent: until then, and when sending it failed, it is pending.
      ['Refunding Show', 'Refund pending'],
      ['Bounced Show', 'Refund pending'],
      ['Charged-back Show', 'Disputed'],
      // A bank payment on its way: no checkout to finish, and not a ticket yet.
      ['Clearing Show', 'Payment processing'],
    ] as const) {
      const card = screen.getByRole('article', { name });
      expect(within(card).getByText(badge)).toBeInTheDocument();
      expect(within(card).getByRole('link', { name: 'Ver Detalles' })).toBeInTheDocument();
      expect(within(card).queryByRole('link', { name: 'Acceder al Stream' })).not.toBeInTheDocument();
      expect(within(card).queryByRole('link', { name: 'Finish payment' })).not.toBeInTheDocument();
    }
  });

  it("shows tickets held for the fan (their turn on a waitlist) until when, in their time zone, to buy on the event's page", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-03-05T10:00:00.000Z'));
    const checkoutUrl = 'https://checkout.stripe.com/c/pay/cs_test_2';
    const event = (id: number, name: string) => ({
      id,
      name,
      image: null,
      date: '2030-03-08T18:30:00.000Z',
      hasReplay: false,
    });
    stubApi({
      ...signedInAs(aUser({ timeZone: 'America/Los_Angeles' })),
      'GET /orders': {
        body: [
          anOrder({
            id: 1,
            status: 'pending',
            expiresAt: '2030-03-05T11:00:00.000Z',
            event: event(4, 'Held Show'),
          }),
          // Its checkout opened: paid on the payment page, as any purchase.
          anOrder({
            id: 2,
            status: 'pending',
            checkoutUrl,
            expiresAt: '2030-03-05T10:30:00.000Z',
            event: event(5, 'Paying Show'),
          }),
        ],
      },
    });
    renderApp('/user/dashboard/my-tickets');

    const held = await screen.findByRole('article', { name: 'Held Show' });
    expect(within(held).getByText('Held for you')).toBeInTheDocument();
    expect(within(held).getByText('Held for you until 3:00 AM PST')).toBeInTheDocument();
    expect(within(held).getByRole('link', { name: 'Buy now' })).toHaveAttribute('href', '/events/4');
    expect(within(held).queryByRole('link', { name: 'Finish payment' })).not.toBeInTheDocument();
    expect(within(held).queryByRole('link', { name: 'Acceder al Stream' })).not.toBeInTheDocument();

    const paying = screen.getByRole('article', { name: 'Paying Show' });
    expect(within(paying).getByText('Pending payment')).toBeInTheDocument();
    expect(within(paying).getByRole('link', { name: 'Finish payment' })).toHaveAttribute('href', checkoutUrl);
    expect(within(paying).queryByRole('link', { name: 'Buy now' })).not.toBeInTheDocument();
    expect(within(paying).queryByText(/Held for you/)).not.toBeInTheDocument();
  });

  it('offers the event list when there are no tickets yet', async () => {
    stubApi({ ...signedInAs(aUser()), 'GET /orders': { body: [] } });
    renderApp('/creators/dashboard/my-tickets');

    expect(await screen.findByText('Todavía no tienes entradas.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Explorar eventos' })).toHaveAttribute('href', '/events');
  });

  it('says the tickets could not be loaded instead of "no tickets", and lists them after "Try again"', async () => {
    let failing = true;
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders': () =>
        failing
          ? { status: 403, body: { statusCode: 403, code: 'FORBIDDEN', message: 'No' } }
          : { body: [anOrder()] },
    });
    const { user } = renderApp('/user/dashboard/my-tickets');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error fetching orders');
    expect(screen.queryByText('Todavía no tienes entradas.')).not.toBeInTheDocument();

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('article', { name: 'Jazz Night' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows each ticket's day and time in the account's time zone, naming the zone", async () => {
    stubApi({
      ...signedInAs(aUser({ timeZone: 'America/Los_Angeles' })),
      'GET /orders': {
        body: [
          anOrder({
            event: {
              id: 4,
              name: 'Jazz Night',
              image: null,
              date: '2030-03-06T02:30:00.000Z',
              hasReplay: false,
            },
          }),
        ],
      },
    });
    renderApp('/user/dashboard/my-tickets');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    // 02:30 UTC on March 6 is still the evening of March 5 in Los Angeles.
    expect(within(card).getByText('Mar 5, 2030')).toBeInTheDocument();
    expect(within(card).getByText('6:30 PM PST')).toBeInTheDocument();
  });

  it('gives a ticket of a show to come by email, and shows what was given and received', async () => {
    const event = (id: number, name: string, date = '2030-03-05T18:30:00.000Z') => ({
      id,
      name,
      image: null,
      date,
      hasReplay: false,
    });
    const refusal = 'They would hold more than the 10 tickets one fan may have for this event';
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /orders': {
        body: [
          anOrder({ id: 1, quantity: 2, event: event(1, 'Jazz Night') }),
          anOrder({ id: 2, givenTo: 'bo@example.com', event: event(2, 'Given Show') }),
          anOrder({ id: 3, giftFrom: 'Ana Lima', event: event(3, 'Received Show') }),
          anOrder({ id: 4, event: event(4, 'Past Show', '2020-03-05T18:30:00.000Z') }),
        ],
      },
      'POST /orders/1/transfer': ({ body }) =>
        (body as { email: string }).email === 'full@example.com'
          ? {
              status: 409,
              body: { statusCode: 409, code: 'CONFLICT', message: refusal, fields: { email: refusal } },
            }
          : { status: 204 },
    });
    const { user } = renderApp('/user/dashboard/my-tickets');

    const given = await screen.findByRole('article', { name: 'Given Show' });
    expect(within(given).getByText('Given away')).toBeInTheDocument();
    expect(within(given).getByText('Given to bo@example.com')).toBeInTheDocument();
    expect(within(given).queryByRole('link', { name: 'Acceder al Stream' })).not.toBeInTheDocument();
    expect(within(given).queryByRole('button', { name: 'Give' })).not.toBeInTheDocument();
    const received = screen.getByRole('article', { name: 'Received Show' });
    expect(within(received).getByText('A gift from Ana Lima')).toBeInTheDocument();
    expect(within(received).getByRole('link', { name: 'Acceder al Stream' })).toBeInTheDocument();
    // An ended show's ticket cannot be given any more.
    const past = screen.getByRole('article', { name: 'Past Show' });
    expect(within(past).queryByRole('button', { name: 'Give' })).not.toBeInTheDocument();

    const jazz = screen.getByRole('article', { name: 'Jazz Night' });
    await user.click(within(jazz).getByRole('button', { name: 'Give' }));
    const dialog = await screen.findByRole('dialog', { name: 'Give 2 tickets to Jazz Night' });
    await user.type(within(dialog).getByLabelText("Friend's email"), 'full@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Give 2 tickets' }));
    expect(await within(dialog).findByText(refusal)).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText("Friend's email"));
    await user.type(within(dialog).getByLabelText("Friend's email"), 'friend@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Give 2 tickets' }));
    expect(await screen.findByText('2 tickets given to friend@example.com')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/orders/1/transfer').map((call) => call.body)).toEqual([
      { email: 'full@example.com' },
      { email: 'friend@example.com' },
    ]);
    // My Tickets is read again after the gift.
    expect(calls.filter((call) => call.path === '/orders')).toHaveLength(2);
  });
});
