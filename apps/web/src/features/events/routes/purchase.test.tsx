import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { anEvent, anOrder, aUser, signedInAs, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const onlyOneLeft = {
  status: 409,
  body: { statusCode: 409, code: 'CONFLICT', message: 'Only 1 ticket left' },
};

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
  });

  it('takes a signed-in account straight to the checkout', async () => {
    stubApi({ ...signedInAs(aUser()), 'GET /events/4': { body: anEvent() } });
    const { user, location } = renderApp('/events/4');

    await user.click(await screen.findByRole('button', { name: 'Purchase Ticket' }));

    expect(location()).toBe('/events/4/checkout');
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

  it('stops at the event maximum when more tickets than that are left', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ maxTickets: 2, ticketsLeft: 50 }) },
    });
    const { user } = renderApp('/events/4/checkout');

    const increase = await screen.findByRole('button', { name: 'Increase quantity' });
    await user.click(increase);

    expect(screen.getByLabelText('Quantity')).toHaveTextContent('2');
    expect(increase).toBeDisabled();
  });

  it('buys with an Idempotency-Key, says so and shows the confirmation', async () => {
    const calls = stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ price: 25 }) },
      'POST /orders': { status: 201, body: anOrder({ quantity: 2, totalAmount: 50 }) },
    });
    const { user, location } = renderApp('/events/4/checkout');

    await user.click(await screen.findByRole('button', { name: 'Increase quantity' }));
    await user.click(screen.getByRole('button', { name: 'Complete Purchase' }));

    expect(await screen.findByText('Tickets purchased successfully!')).toBeInTheDocument();
    expect(location()).toBe('/purchase-confirmation/4/2');
    const order = calls.find(({ method, path }) => method === 'POST' && path === '/orders');
    expect(order?.body).toEqual({ eventId: 4, quantity: 2 });
    expect(order?.headers.get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
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
});

describe('purchase confirmation', () => {
  it('totals price × quantity to two decimals and links onwards', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /events/4': { body: anEvent({ name: 'Jazz Night', price: 0.1 }) },
    });
    renderApp('/purchase-confirmation/4/3');

    expect(await screen.findByRole('heading', { name: 'Purchase Completed!' })).toBeInTheDocument();
    expect(
      screen.getByText('Thank you for your purchase. Your tickets have been added to your account.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Jazz Night')).toBeInTheDocument();
    expect(screen.getByText('3 tickets')).toBeInTheDocument();
    expect(screen.getByText('$0.30')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'My Tickets' })).toHaveAttribute(
      'href',
      '/creators/dashboard/my-tickets',
    );
    expect(screen.getByRole('link', { name: 'Browse More Events' })).toHaveAttribute('href', '/events');
  });
});
