import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { anOrder, aUser, signedInAs, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

describe('my tickets', () => {
  it('shows each order as a completed ticket with its count, total and links', async () => {
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders': {
        body: [
          anOrder({
            quantity: 2,
            totalAmount: 50,
            event: { id: 4, name: 'Jazz Night', image: null, date: '2030-03-05T18:30:00.000Z' },
          }),
        ],
      },
    });
    renderApp('/user/dashboard/my-tickets');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    expect(within(card).getByText('Completed')).toBeInTheDocument();
    expect(within(card).getByText('2 ticket(s)')).toBeInTheDocument();
    expect(within(card).getByText('50.00')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Total in euros' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Ver Detalles' })).toHaveAttribute('href', '/events/4');
    expect(within(card).getByRole('link', { name: 'Acceder al Stream' })).toHaveAttribute(
      'href',
      '/events/4/stream',
    );
  });

  it('offers the event list when there are no tickets yet', async () => {
    stubApi({ ...signedInAs(aUser()), 'GET /orders': { body: [] } });
    renderApp('/creators/dashboard/my-tickets');

    expect(await screen.findByText('Todavía no tienes entradas.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Explorar eventos' })).toHaveAttribute('href', '/events');
  });

  it('only logs a failure to read the orders', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({
      ...signedInAs(aUser()),
      'GET /orders': { status: 403, body: { statusCode: 403, code: 'FORBIDDEN', message: 'No' } },
    });
    renderApp('/user/dashboard/my-tickets');

    expect(await screen.findByText('Todavía no tienes entradas.')).toBeInTheDocument();
    expect(log).toHaveBeenCalledWith('Error fetching orders', expect.anything());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    log.mockRestore();
  });
});
