import type { PromoCode } from '@stagedoor/shared/promo-codes';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  aCreator,
  anEvent,
  aTicketType,
  daysFromNow,
  signedInAs,
  stubApi,
  type Handler,
} from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const event = anEvent({
  id: 4,
  date: daysFromNow(10),
  ticketTypes: [
    aTicketType({ id: 41, name: 'Early bird', price: 15 }),
    aTicketType({ id: 42, name: 'Front row', price: 60 }),
    aTicketType({ id: 43, name: 'Supporter', price: 5, payWhatYouWant: { minimum: 5, suggested: 20 } }),
  ],
});

const aCode = (overrides: Partial<PromoCode>): PromoCode => ({
  id: 1,
  code: 'SPRING',
  percentOff: 20,
  amountOff: null,
  maxUses: null,
  uses: 0,
  expiresAt: null,
  ticketTypeIds: null,
  ...overrides,
});

function stubPanel(codes: Handler) {
  return stubApi({
    ...signedInAs(aCreator()),
    'GET /events/creators/4/details': { body: event },
    'GET /events/4/promo-codes': codes,
  });
}

describe('promo codes', () => {
  it('lists the codes of the event with their discount, limits and uses', async () => {
    stubPanel({
      body: [
        aCode({ maxUses: 10, uses: 3 }),
        aCode({
          id: 2,
          code: 'FRONT5',
          percentOff: null,
          amountOff: 5,
          maxUses: 2,
          uses: 2,
          expiresAt: '2030-03-01T18:00:00.000Z',
          ticketTypeIds: [42],
        }),
      ],
    });
    renderApp('/creators/dashboard/events/4/edit');

    const list = await screen.findByRole('list', { name: 'Promo codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'SPRING20% offEvery ticket type · No expiry3 of 10 used',
      'FRONT5$5.00 offUsed upFront row · Expires Mar 1, 2030, 6:00 PM UTC2 of 2 used',
    ]);
  });

  it('makes a code for the ticked types, judged by the API’s rules first, and lists it', async () => {
    const codes: PromoCode[] = [];
    stubApi({
      ...signedInAs(aCreator()),
      'GET /events/creators/4/details': { body: event },
      'GET /events/4/promo-codes': () => ({ body: codes }),
      'POST /events/4/promo-codes': ({ body }) => {
        const made = aCode({ ...(body as Partial<PromoCode>), id: 9, percentOff: null });
        codes.push(made);
        return { status: 201, body: made };
      },
    });
    const { user } = renderApp('/creators/dashboard/events/4/edit');

    expect(await screen.findByText('No promo codes yet.')).toBeInTheDocument();
    // Pay-what-you-want tickets take no code: they are not offered.
    const types = screen.getByRole('group', { name: 'Ticket types' });
    expect(within(types).queryByLabelText('Supporter')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Code'), 'x');
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));
    expect(screen.getByLabelText('Code')).toHaveAccessibleErrorMessage(
      'Promo code must be 3 to 40 letters, digits, - or _',
    );

    await user.type(screen.getByLabelText('Code'), 'mas5');
    await user.click(screen.getByRole('radio', { name: 'Amount off' }));
    await user.clear(screen.getByLabelText('Amount ($)'));
    await user.type(screen.getByLabelText('Amount ($)'), '5');
    await user.type(screen.getByLabelText('Maximum uses (optional)'), '2');
    await user.click(within(types).getByLabelText('Front row'));
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));

    expect(await screen.findByText('Promo code XMAS5 created')).toBeInTheDocument();
    expect(codes[0]).toMatchObject({ code: 'XMAS5', amountOff: 5, maxUses: 2, ticketTypeIds: [42] });
    const list = await screen.findByRole('list', { name: 'Promo codes' });
    expect(within(list).getByText('XMAS5')).toBeInTheDocument();
    expect(screen.getByLabelText('Code')).toHaveValue('');
  });

  it("puts the server's reason beside the code", async () => {
    const reason = 'This event already has the promo code SPRING';
    stubApi({
      ...signedInAs(aCreator()),
      'GET /events/creators/4/details': { body: event },
      'GET /events/4/promo-codes': { body: [aCode({})] },
      'POST /events/4/promo-codes': {
        status: 409,
        body: { statusCode: 409, code: 'CONFLICT', message: reason, fields: { code: reason } },
      },
    });
    const { user } = renderApp('/creators/dashboard/events/4/edit');

    await user.type(await screen.findByLabelText('Code'), 'spring');
    await user.click(screen.getByRole('button', { name: 'Create promo code' }));

    expect(await screen.findByText(reason)).toHaveAttribute('id', 'code-error');
  });
});
