import type { CreateOrderRequest } from '@stagedoor/shared/orders';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  aCreator,
  anEvent,
  anOrder,
  aTicketType,
  aUser,
  daysFromNow,
  signedInAs,
  stubApi,
  type ApiCall,
} from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const orderCalls = (calls: ApiCall[]) =>
  calls.filter(({ method, path }) => method === 'POST' && path === '/orders');

/** The browser's location with `assign` recorded instead of followed (jsdom cannot leave the page). */
function stubLocationAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

const onlyOneLeft = {
  status: 409,
  body: { statusCode: 409, code: 'CONFLICT', message: 'Only 1 ticket left' },
};

const visitReports = (calls: ApiCall[]) =>
  calls
    .filter(({ method, path }) => method === 'POST' && path === '/events/4/views')
    .map(({ body, headers }) => ({ body, token: headers.get('authorization') }));

describe('visits reported to the creator', () => {
  it('reports the event page once per visit, and the checkout once, with the fan’s token', async () => {
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent() },
      'POST /events/4/views': { status: 204 },
    });
    const { user } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'Purchase Ticket' }));
    expect(await screen.findByRole('button', { name: 'Complete Purchase' })).toBeInTheDocument();
    // Changing the quantity renders the checkout again: no second report.
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    await user.click(screen.getByRole('link', { name: 'Back to Event' }));
    expect(await screen.findByRole('button', { name: 'Purchase Ticket' })).toBeInTheDocument();

    const token = 'Bearer stored-token';
    expect(visitReports(calls)).toEqual([
      { body: { page: 'event' }, token },
      { body: { page: 'checkout' }, token },
      { body: { page: 'event' }, token },
    ]);
  });

  it('shows the page as usual when the report fails', async () => {
    const calls = stubApi({
      'GET /events/4': { body: anEvent() },
      'POST /events/4/views': {
        status: 429,
        body: { statusCode: 429, code: 'RATE_LIMITED', message: 'Too many attempts.' },
      },
    });
    renderApp('/events/4');

    expect(await screen.findByRole('heading', { level: 1, name: 'Jazz Night' })).toBeInTheDocument();
    await waitFor(() => expect(visitReports(calls)).toEqual([{ body: { page: 'event' }, token: null }]));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Too many attempts.')).not.toBeInTheDocument();
  });
});

describe('event details', () => {
  it('shows the event and sends a visitor to spectator registration, to continue at the checkout', async () => {
    stubApi({ 'GET /events/4': { body: anEvent({ price: 25, ticketsLeft: 60 }) } });
    const { user, location } = renderApp('/events/4');

    expect(await screen.findByRole('heading', { level: 1, name: 'Jazz Night' })).toBeInTheDocument();
    expect(screen.getByText('$25.00')).toBeInTheDocument();
    expect(screen.getByText('60 tickets available')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute('href', '/creator/grace');
    expect(screen.getByText('@grace')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Purchase Ticket' }));

    expect(location()).toBe('/user/register?redirect=%2Fevents%2F4%2Fcheckout');
    // The sign-up says which tickets it is for, and what comes next.
    expect(
      await screen.findByText(
        'Create your account to get your tickets to Jazz Night: the checkout comes right after.',
      ),
    ).toBeInTheDocument();
  });

  it('takes a signed-in account straight to the checkout', async () => {
    stubApi({ ...signedInAs(aUser()), 'GET /events/4': { body: anEvent() } });
    const { user, location } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'Purchase Ticket' }));

    expect(location()).toBe('/events/4/checkout');
  });

  it('says a cancelled event was cancelled and refunded, and offers no purchase', async () => {
    stubApi({ 'GET /events/4': { body: anEvent({ cancelledAt: new Date().toISOString() }) } });
    renderApp('/events/4');

    expect(await screen.findByText('Cancelled')).toBeInTheDocument();
    expect(screen.getByText('This event was cancelled. Every buyer has been refunded.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Purchase Ticket' })).not.toBeInTheDocument();
  });

  it("toasts the server's message when the event cannot be loaded", async () => {
    stubApi({
      'GET /events/4': {
        status: 404,
        body: { statusCode: 404, code: 'NOT_FOUND', message: 'Event not found' },
      },
    });
    renderApp('/events/4');

    expect(await screen.findByText('Event not found')).toBeInTheDocument();
  });
});

describe('checkout', () => {
  it('keeps the quantity between 1 and the tickets left, and totals price × quantity', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ price: 19.99, maxTickets: 10, ticketsLeft: 3 }) },
    });
    const { user } = renderApp('/events/4/checkout');

    const quantity = await screen.findByLabelText('Quantity');
    const decrease = screen.getByRole('button', { name: 'Decrease quantity' });
    const increase = screen.getByRole('button', { name: 'Increase quantity' });
    expect(quantity).toHaveTextContent('1');
    expect(decrease).toBeDisabled();
    expect(screen.getByText('$19.99 per ticket')).toBeInTheDocument();
    expect(screen.getByText('$19.99', { selector: 'dd' })).toBeInTheDocument();

    await user.click(increase);
    await user.click(increase);

    expect(quantity).toHaveTextContent('3');
    expect(increase).toBeDisabled();
    expect(decrease).toBeEnabled();
    expect(screen.getByText('$59.97', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Event' })).toHaveAttribute('href', '/events/4');
  });

  it('sells an ended show with its replay ready as the replay, and an ended one without none', async () => {
    const ended = { date: daysFromNow(-1) };
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ ...ended, hasReplay: true }) },
      'GET /events/5': { body: anEvent({ ...ended, id: 5, hasReplay: false }) },
    });
    const { unmount } = renderApp('/events/4/checkout');
    expect(
      await screen.findByText(
        'The show has ended: a ticket bought now is for its replay, to watch whenever you like.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Complete Purchase' })).toBeEnabled();
    unmount();

    renderApp('/events/5/checkout');
    expect(await screen.findByText('This event has ended.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Complete Purchase' })).not.toBeInTheDocument();
    expect(screen.queryByText(/is for its replay/)).not.toBeInTheDocument();
  });

  it('stops at the limit per buyer when more tickets than that are left', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ maxTickets: 100, maxPerBuyer: 2, ticketsLeft: 50 }) },
    });
    const { user } = renderApp('/events/4/checkout');

    const increase = await screen.findByRole('button', { name: 'Increase quantity' });
    await user.click(increase);

    expect(screen.getByLabelText('Quantity')).toHaveTextContent('2');
    expect(increase).toBeDisabled();
  });

  it('buys at the price shown with an Idempotency-Key, says so and shows the confirmation', async () => {
    const order = anOrder({ id: 11, quantity: 2, totalAmount: 50 });
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /payments/config': { body: { provider: 'none', holdMinutes: 15 } },
      'GET /events/4': { body: anEvent({ price: 25 }) },
      'POST /orders': { status: 201, body: order },
      'GET /orders/11': { body: order },
    });
    const { user, location } = renderApp('/events/4/checkout');

    expect(
      await screen.findByText(
        'No card is charged: your tickets are confirmed as soon as you complete the purchase.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    await user.click(screen.getByRole('button', { name: 'Complete Purchase' }));

    expect(await screen.findByText('Tickets purchased successfully!')).toBeInTheDocument();
    expect(location()).toBe('/purchase-confirmation/4/2?order=11');
    expect(await screen.findByText('Order #11')).toBeInTheDocument();
    const [sent] = orderCalls(calls);
    expect(sent?.body).toEqual({ eventId: 4, ticketTypeId: 40, quantity: 2, unitPrice: 25 });
    expect(sent?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows the new price and total when the price changed, and buys at it once confirmed', async () => {
    let price = 10;
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': () => ({ body: anEvent({ price }) }),
      'POST /orders': ({ body }) => {
        if ((body as { unitPrice: number }).unitPrice === price) {
          return { status: 201, body: anOrder({ id: 15, quantity: 2, unitPrice: price, totalAmount: 24 }) };
        }
        const message = `The price of this event is now $${price.toFixed(2)}`;
        return {
          status: 409,
          body: { statusCode: 409, code: 'CONFLICT', message, fields: { unitPrice: message } },
        };
      },
    });
    const { user, location } = renderApp('/events/4/checkout');

    await user.click(await screen.findByRole('button', { name: 'Increase quantity' }));
    expect(screen.getByText('$20.00', { selector: 'dd' })).toBeInTheDocument();
    price = 12;
    await user.click(screen.getByRole('button', { name: 'Complete Purchase' }));

    expect(
      await screen.findByText(
        'The price of these tickets changed to $12.00 per ticket, so your new total is $24.00. Nothing was charged: confirm again to buy at the new price.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('$12.00 per ticket')).toBeInTheDocument();
    expect(screen.getByText('$24.00', { selector: 'dd' })).toBeInTheDocument();
    expect(location()).toBe('/events/4/checkout');

    await user.click(screen.getByRole('button', { name: 'Complete Purchase' }));

    expect(await screen.findByText('Tickets purchased successfully!')).toBeInTheDocument();
    expect(location()).toBe('/purchase-confirmation/4/2?order=15');
    const [refused, bought] = orderCalls(calls);
    expect(refused?.body).toEqual({ eventId: 4, ticketTypeId: 40, quantity: 2, unitPrice: 10 });
    expect(bought?.body).toEqual({ eventId: 4, ticketTypeId: 40, quantity: 2, unitPrice: 12 });
    expect(bought?.headers.get('Idempotency-Key')).not.toBe(refused?.headers.get('Idempotency-Key'));
  });

  it('sends the fan to Stripe to pay for a pending order, saying how long the tickets are held', async () => {
    const assign = stubLocationAssign();
    const checkoutUrl = 'https://checkout.stripe.com/c/pay/cs_test_1';
    stubApi({
      ...signedInAs(aUser()),
      'GET /payments/config': { body: { provider: 'stripe', holdMinutes: 15 } },
      'GET /events/4': { body: anEvent({ price: 25 }) },
      'POST /orders': {
        status: 201,
        body: anOrder({ status: 'pending', checkoutUrl, expiresAt: new Date().toISOString() }),
      },
    });
    const { user, location } = renderApp('/events/4/checkout');

    expect(
      await screen.findByText("You'll pay securely with Stripe. Your tickets are held for 15 minutes."),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    expect(screen.getByText('You pay $50.00')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Complete Purchase' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(checkoutUrl));
    expect(location()).toBe('/events/4/checkout');
    expect(screen.queryByText('Tickets purchased successfully!')).not.toBeInTheDocument();
  });

  it.each([
    [
      'a cancelled event',
      aUser(),
      anEvent({ cancelledAt: new Date().toISOString() }),
      'This event was cancelled. Every buyer has been refunded.',
    ],
    [
      "the creator's own event",
      aCreator(),
      anEvent({ creatorId: aCreator().id }),
      'This is your event: creators cannot buy tickets to their own events.',
    ],
  ])('says why %s cannot be bought instead of offering the purchase', async (_, account, event, reason) => {
    stubApi({ ...signedInAs(account), 'GET /events/4': { body: event } });
    renderApp('/events/4/checkout');

    expect(await screen.findByText(reason)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Complete Purchase' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Event' })).toBeInTheDocument();
  });

  it('shows the refusal and retries the same purchase with the same key, a new one with a new key', async () => {
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent() },
      'POST /orders': onlyOneLeft,
    });
    const { user, location } = renderApp('/events/4/checkout');

    await user.click(await screen.findByRole('button', { name: 'Increase quantity' }));
    const complete = screen.getByRole('button', { name: 'Complete Purchase' });
    await user.click(complete);
    expect(await screen.findByText('Only 1 ticket left')).toBeInTheDocument();
    await user.click(complete);
    await user.click(screen.getByRole('button', { name: 'Decrease quantity' }));
    await user.click(complete);

    const keys = calls
      .filter(({ path }) => path === '/orders')
      .map(({ headers }) => headers.get('Idempotency-Key'));
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(location()).toBe('/events/4/checkout');
  });

  it("says 'Failed to purchase tickets' when the server gives no reason", async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent() },
      'POST /orders': { status: 400 },
    });
    const { user } = renderApp('/events/4/checkout');

    await user.click(await screen.findByRole('button', { name: 'Complete Purchase' }));

    expect(await screen.findByText('Failed to purchase tickets')).toBeInTheDocument();
  });

  it("toasts 'Failed to load event details' when the event cannot be loaded and the server gives no reason", async () => {
    stubApi({ ...signedInAs(aUser()), 'GET /events/4': { status: 404 } });
    renderApp('/events/4/checkout');

    expect(await screen.findByText('Failed to load event details')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse events' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Quantity')).not.toBeInTheDocument();
  });
});

describe('purchase confirmation', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits for a pending payment, asking every 2 s, then shows the completed order', async () => {
    // The polling interval moves only as the test says, however long the page takes to load and
    // answer; timeouts stay real, so findBy… keeps waiting as long as any other.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let status: 'pending' | 'completed' = 'pending';
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ price: 25 }) },
      'GET /orders/11': () => ({ body: anOrder({ id: 11, status }) }),
    });
    renderApp('/purchase-confirmation/4/2?order=11');

    expect(
      await screen.findByRole('heading', { name: 'Waiting for your payment to be confirmed…' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Order #11')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Purchase Completed!' })).not.toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(
      screen.getByRole('heading', { name: 'Waiting for your payment to be confirmed…' }),
    ).toBeInTheDocument();
    status = 'completed';
    await act(() => vi.advanceTimersByTimeAsync(2000));

    expect(await screen.findByRole('heading', { name: 'Purchase Completed!' })).toBeInTheDocument();
    expect(screen.getByText('Order #11')).toBeInTheDocument();
    expect(await screen.findByText('$50.00')).toBeInTheDocument();
    expect(calls.filter(({ path }) => path === '/orders/11')).toHaveLength(3);
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(calls.filter(({ path }) => path === '/orders/11')).toHaveLength(3);
  });

  it('confirms the order with the checkout Stripe sends the fan back from, once, then follows it', async () => {
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ price: 25 }) },
      'POST /orders/11/confirm': { body: anOrder({ id: 11, status: 'completed' }) },
      'GET /orders/11': { body: anOrder({ id: 11, status: 'completed' }) },
    });
    renderApp('/purchase-confirmation/4/2?order=11&session_id=cs_test_abc');

    expect(await screen.findByRole('heading', { name: 'Purchase Completed!' })).toBeInTheDocument();
    expect(
      calls
        .filter(({ path }) => path.startsWith('/orders/11'))
        .map(({ method, path, body }) => [method, path, body]),
    ).toEqual([['POST', '/orders/11/confirm', { sessionId: 'cs_test_abc' }]]);
  });

  it('says when the checkout expired and links back to the event', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders/11': { body: anOrder({ id: 11, status: 'expired' }) },
    });
    renderApp('/purchase-confirmation/4/2?order=11');

    const heading = await screen.findByRole('heading', {
      name: 'Your checkout expired and the tickets went back on sale.',
    });
    expect(heading).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Event' })).toHaveAttribute('href', '/events/4');
    expect(screen.queryByRole('heading', { name: 'Purchase Completed!' })).not.toBeInTheDocument();
  });

  it('totals price × quantity to two decimals and links onwards', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ name: 'Jazz Night', price: 0.55 }) },
    });
    renderApp('/purchase-confirmation/4/3');

    expect(await screen.findByRole('heading', { name: 'Purchase Completed!' })).toBeInTheDocument();
    expect(
      screen.getByText('Thank you for your purchase. Your tickets have been added to your account.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Jazz Night')).toBeInTheDocument();
    expect(screen.getByText('3 tickets')).toBeInTheDocument();
    expect(screen.getByText('$1.65')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'My Tickets' })).toHaveAttribute(
      'href',
      '/creators/dashboard/my-tickets',
    );
    expect(screen.getByRole('link', { name: 'Browse More Events' })).toHaveAttribute('href', '/events');
  });
});

describe('ticket options', () => {
  const options = anEvent({
    price: 40,
    ticketTypes: [
      aTicketType({ id: 41, name: 'Front row', price: 40, ticketsLeft: 5 }),
      aTicketType({ id: 42, name: 'Early bird', price: 15, ticketsLeft: 12 }),
      aTicketType({ id: 43, name: 'Supporter', price: 5, payWhatYouWant: { minimum: 5, suggested: 20 } }),
      aTicketType({ id: 44, name: 'Late', price: 30, salesStart: '2099-01-01T18:00:00.000Z' }),
    ],
  });

  /** POST /orders/quote as the server answers it, with one code, SPRING, 20% off Early bird. */
  const quotes = ({ body }: ApiCall) => {
    const request = body as CreateOrderRequest;
    const type = options.ticketTypes.find(({ id }) => id === request.ticketTypeId);
    if (request.promoCode && request.promoCode !== 'SPRING') {
      const message = 'This promo code is not valid for this event';
      return {
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_FAILED', message, fields: { promoCode: message } },
      };
    }
    const unitPrice = request.amount ?? type?.price ?? 0;
    const subtotal = unitPrice * request.quantity;
    const discount = request.promoCode ? subtotal * 0.2 : 0;
    return {
      body: {
        ticketType: { id: type?.id, name: type?.name },
        quantity: request.quantity,
        unitPrice,
        subtotal,
        promoCode: request.promoCode ?? null,
        discount,
        total: subtotal - discount,
      },
    };
  };

  it('lists the types on the event page with their prices, what is left and when they go on sale', async () => {
    stubApi({ 'GET /events/4': { body: options } });
    renderApp('/events/4');

    const list = await screen.findByRole('list', { name: 'Ticket types' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Front row$40.005 tickets left',
      'Early bird$15.0012 tickets left',
      'SupporterPay what you want, from $5.0060 tickets left',
      'Late$30.00On sale from Jan 1, 2099, 6:00 PM UTC',
    ]);
  });

  it('quotes the type, quantity and code chosen, shows the discount, and buys it', async () => {
    const order = anOrder({
      id: 12,
      ticketType: 'Early bird',
      promoCode: 'SPRING',
      discount: 6,
      totalAmount: 24,
    });
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: options },
      'POST /orders/quote': quotes,
      'POST /orders': { status: 201, body: order },
      'GET /orders/12': { body: order },
    });
    const { user, location } = renderApp('/events/4/checkout');

    expect(await screen.findByRole('radio', { name: /Late/ })).toBeDisabled();
    await user.click(screen.getByRole('radio', { name: /Early bird/ }));
    await user.click(screen.getByRole('button', { name: 'Increase quantity' }));
    expect(screen.getByText('$30.00', { selector: 'dd' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Promo code'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('This promo code is not valid for this event')).toHaveAttribute(
      'id',
      'promoCode-error',
    );
    expect(screen.getByRole('button', { name: 'Complete Purchase' })).toBeDisabled();

    await user.clear(screen.getByLabelText('Promo code'));
    await user.type(screen.getByLabelText('Promo code'), 'spring{Enter}');
    expect(await screen.findByText('−$6.00')).toBeInTheDocument();
    expect(screen.getByText('Discount (SPRING)')).toBeInTheDocument();
    expect(screen.getByText('$24.00', { selector: 'dd' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Complete Purchase' }));

    expect(await screen.findByText('Tickets purchased successfully!')).toBeInTheDocument();
    expect(location()).toBe('/purchase-confirmation/4/2?order=12');
    expect(orderCalls(calls)[0]?.body).toEqual({
      eventId: 4,
      ticketTypeId: 42,
      quantity: 2,
      promoCode: 'SPRING',
      unitPrice: 15,
    });
    // The confirmation names the type and the code.
    expect(await screen.findByText('Early bird')).toBeInTheDocument();
    expect(screen.getByText('Promo code SPRING')).toBeInTheDocument();
    expect(screen.getByText('−$6.00')).toBeInTheDocument();
    expect(screen.getByText('$24.00')).toBeInTheDocument();
  });

  it('offers the suggested amount of a pay-what-you-want type, refuses one below the minimum, and takes no code', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: options },
      'POST /orders/quote': quotes,
    });
    const { user } = renderApp('/events/4/checkout');

    await user.click(await screen.findByRole('radio', { name: /Supporter/ }));
    const amount = screen.getByLabelText('Your price per ticket');
    expect(amount).toHaveValue(20);
    expect(screen.queryByLabelText('Promo code')).not.toBeInTheDocument();
    expect(screen.getByText('$20.00', { selector: 'dd' })).toBeInTheDocument();

    await user.clear(amount);
    await user.type(amount, 'abc');
    expect(amount).toHaveAccessibleErrorMessage('Amount must be a number');
    expect(screen.getByRole('button', { name: 'Complete Purchase' })).toBeDisabled();
  });

  it('says a free order is free, and completes it without a card', async () => {
    const free = anEvent({ price: 0 });
    const order = anOrder({ id: 13, quantity: 1, unitPrice: 0, totalAmount: 0 });
    stubApi({
      ...signedInAs(aUser()),
      'GET /payments/config': { body: { provider: 'stripe', holdMinutes: 15 } },
      'GET /events/4': { body: free },
      'POST /orders': { status: 201, body: order },
      'GET /orders/13': { body: order },
    });
    const { user } = renderApp('/events/4/checkout');

    expect(await screen.findByText('Free', { selector: 'dd' })).toBeInTheDocument();
    expect(
      await screen.findByText(
        'No card is charged: your tickets are confirmed as soon as you complete the purchase.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Complete Purchase' }));

    expect(await screen.findByRole('heading', { name: 'Purchase Completed!' })).toBeInTheDocument();
    expect(await screen.findByText('Free')).toBeInTheDocument();
  });
});
