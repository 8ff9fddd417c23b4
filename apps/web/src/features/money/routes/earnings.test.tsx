import type { Earnings, Payout, PayoutAccount } from '@stagedoor/shared/money';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { aCreator, signedInAs, stubApi, type Handler } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const earnings: Earnings = {
  balance: { pending: 120.5, available: -5, reserved: 2.4, due: 80, paidOut: 300 },
  events: [
    {
      eventId: 1,
      name: 'Jazz Night',
      date: '2030-03-05T18:30:00.000Z',
      cancelled: false,
      ticketsSold: 10,
      gross: 250,
      platformFee: 25,
      processorFee: 10.25,
      refunded: 0,
      penalty: 0,
      net: 214.75,
    },
    {
      eventId: 2,
      name: 'Blues Evening',
      date: '2030-04-01T19:00:00.000Z',
      cancelled: true,
      ticketsSold: 4,
      gross: 100,
      platformFee: 0,
      processorFee: 0,
      refunded: 100,
      penalty: 5,
      net: -5,
    },
  ],
};

const payouts: Payout[] = [
  { id: 3, amount: 80, status: 'due', createdAt: '2030-03-07T10:00:00.000Z', paidAt: null },
  { id: 2, amount: 60, status: 'in_transit', createdAt: '2030-03-06T10:00:00.000Z', paidAt: null },
  {
    id: 1,
    amount: 300,
    status: 'paid',
    createdAt: '2030-02-01T10:00:00.000Z',
    paidAt: '2030-02-02T10:00:00.000Z',
  },
  { id: 4, amount: 40, status: 'failed', createdAt: '2030-01-01T10:00:00.000Z', paidAt: null },
];

const noProvider: PayoutAccount = {
  provider: 'none',
  connected: false,
  payoutsEnabled: false,
  country: null,
  requirements: [],
};
const stripeAccount = (account: Partial<PayoutAccount>): PayoutAccount => ({
  provider: 'stripe',
  connected: true,
  payoutsEnabled: false,
  country: 'US',
  requirements: [],
  ...account,
});

function stubEarnings(overrides: Record<string, Handler> = {}) {
  return stubApi({
    ...signedInAs(aCreator()),
    'GET /earnings': { body: earnings },
    'GET /payouts': { body: payouts },
    'GET /payments/account': { body: noProvider },
    ...overrides,
  });
}

const region = (name: string) => screen.getByRole('region', { name });

describe('earnings', () => {
  it('shows the balance, with a penalty owed, and the rules behind it', async () => {
    stubEarnings();
    renderApp('/creators/dashboard/earnings');

    expect(await screen.findByRole('heading', { level: 1, name: 'Earnings' })).toBeInTheDocument();
    expect(
      within(await screen.findByRole('region', { name: 'Pending' })).getByText('$120.50'),
    ).toBeInTheDocument();
    expect(within(region('Available')).getByText('−$5.00')).toBeInTheDocument();
    expect(within(region('Available')).getByText('Penalty owed')).toBeInTheDocument();
    expect(within(region('Reserved')).getByText('$2.40')).toBeInTheDocument();
    expect(within(region('Due')).getByText('$80.00')).toBeInTheDocument();
    expect(within(region('Paid out')).getByText('$300.00')).toBeInTheDocument();
    expect(
      screen.getByText(
        "Stagedoor keeps a 10% platform fee and the payment processor its own fee. An event's net becomes available 24 hours after it ends, to be paid out. Until you have 3 completed events, 2% of each event's net is held in reserve and released after 30 days.",
      ),
    ).toBeInTheDocument();
  });

  it('lists what each event earned, tagging a cancelled one', async () => {
    stubEarnings();
    renderApp('/creators/dashboard/earnings');

    const table = await screen.findByRole('table', { name: 'Sales by event' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Event',
      'Date',
      'Tickets',
      'Gross',
      'Platform fee',
      'Processor fee',
      'Refunded',
      'Penalty',
      'Net',
    ]);
    const jazz = within(table).getByRole('row', { name: /Jazz Night/ });
    expect(
      within(jazz)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Mar 5, 2030, 6:30 PM UTC', '10', '$250.00', '$25.00', '$10.25', '$0.00', '$0.00', '$214.75']);
    const blues = within(table).getByRole('row', { name: /Blues Evening/ });
    expect(within(blues).getByText('Cancelled')).toBeInTheDocument();
    expect(within(blues).getByText('−$5.00')).toBeInTheDocument();
    expect(within(jazz).queryByText('Cancelled')).not.toBeInTheDocument();
  });

  it('lists the payouts with their status', async () => {
    stubEarnings();
    renderApp('/creators/dashboard/earnings');

    const table = await screen.findByRole('table', { name: 'Payouts' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Mar 7, 2030, 10:00 AM UTC', '$80.00', 'Due'],
      ['Mar 6, 2030, 10:00 AM UTC', '$60.00', 'In transit'],
      ['Feb 1, 2030, 10:00 AM UTC', '$300.00', 'Paid'],
      ['Jan 1, 2030, 10:00 AM UTC', '$40.00', 'Failed'],
    ]);
  });

  it("says 'No sales yet.' and 'No payouts yet.' before the first sale", async () => {
    stubEarnings({
      'GET /earnings': {
        body: { balance: { pending: 0, available: 0, reserved: 0, due: 0, paidOut: 0 }, events: [] },
      },
      'GET /payouts': { body: [] },
    });
    renderApp('/creators/dashboard/earnings');

    expect(await screen.findByText('No sales yet.')).toBeInTheDocument();
    expect(await screen.findByText('No payouts yet.')).toBeInTheDocument();
    expect(within(region('Available')).getByText('$0.00')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it.each([
    [
      'without a payment provider',
      noProvider,
      'Payouts are recorded as due and paid by the Stagedoor team.',
      null,
    ],
    [
      'with Stripe, not connected',
      stripeAccount({ connected: false, country: null }),
      'Connect a Stripe account to receive your payouts.',
      'Connect Stripe',
    ],
    [
      'with Stripe, onboarding unfinished',
      stripeAccount({ requirements: ['external_account'] }),
      'Stripe needs a few more details before it can send you payouts:',
      'Finish Stripe onboarding',
    ],
    [
      'with Stripe, details sent and being checked',
      stripeAccount({}),
      'Stripe is checking your details.',
      'Finish Stripe onboarding',
    ],
    [
      'with Stripe, payouts enabled',
      stripeAccount({ payoutsEnabled: true }),
      'Stripe connected: payouts go to your Stripe account.',
      'Open Stripe dashboard',
    ],
  ] satisfies [string, PayoutAccount, string, string | null][])(
    'describes the payout account %s',
    async (_, account, text, step) => {
      stubEarnings({ 'GET /payments/account': { body: account } });
      renderApp('/creators/dashboard/earnings');

      expect(await screen.findByText(text)).toBeInTheDocument();
      for (const name of ['Connect Stripe', 'Finish Stripe onboarding', 'Open Stripe dashboard']) {
        const button = screen.queryByRole('button', { name });
        if (name === step) expect(button).toBeInTheDocument();
        else expect(button).not.toBeInTheDocument();
      }
    },
  );

  it("opens Stripe's onboarding page in the country the creator picks", async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const url = 'https://connect.stripe.com/setup/e/acct_1/abc';
    const calls = stubEarnings({
      'GET /payments/account': { body: stripeAccount({ connected: false, country: null }) },
      'POST /payments/account/onboarding': { body: { url } },
    });
    const { user } = renderApp('/creators/dashboard/earnings');

    await user.selectOptions(await screen.findByLabelText('Country where you get paid'), 'France');
    await user.click(screen.getByRole('button', { name: 'Connect Stripe' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(url));
    expect(calls.filter(({ method }) => method === 'POST').map(({ body }) => body)).toEqual([
      { country: 'FR' },
    ]);
  });

  it('lists in words what Stripe still needs', async () => {
    stubEarnings({
      'GET /payments/account': {
        body: stripeAccount({
          requirements: [
            'individual.dob.day',
            'individual.dob.month',
            'external_account',
            'tos_acceptance.date',
          ],
        }),
      },
    });
    renderApp('/creators/dashboard/earnings');

    const card = (await screen.findByRole('heading', { name: 'Payout account' })).closest('div');
    expect(
      within(card?.parentElement?.parentElement ?? document.body)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Your date of birth', 'A bank account for your payouts', "Your acceptance of Stripe's terms"]);
  });

  it('opens the Express dashboard once payouts flow', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const url = 'https://connect.stripe.com/express/acct_1/login';
    const calls = stubEarnings({
      'GET /payments/account': { body: stripeAccount({ payoutsEnabled: true }) },
      'POST /payments/account/dashboard': { body: { url } },
    });
    const { user } = renderApp('/creators/dashboard/earnings');

    await user.click(await screen.findByRole('button', { name: 'Open Stripe dashboard' }));

    await waitFor(() => expect(assign).toHaveBeenCalledWith(url));
    expect(calls.filter(({ method }) => method === 'POST').map(({ path }) => path)).toEqual([
      '/payments/account/dashboard',
    ]);
  });

  it('downloads the CSV with the bearer token', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const csv = 'event,gross\nJazz Night,250.00\n';
    const calls = stubEarnings({ 'GET /earnings.csv': { body: csv, contentType: 'text/csv' } });
    const { user } = renderApp('/creators/dashboard/earnings');

    await user.click(await screen.findByRole('button', { name: 'Download CSV' }));

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    const link = click.mock.contexts[0] as HTMLAnchorElement;
    expect(link.download).toBe('earnings.csv');
    const file = vi.mocked(URL.createObjectURL).mock.lastCall?.[0] as Blob;
    await expect(file.text()).resolves.toBe(csv);
    const request = calls.find(({ path }) => path === '/earnings.csv');
    expect(request?.headers.get('Authorization')).toBe('Bearer stored-token');
    click.mockRestore();
  });

  it("shows the server's reason when the earnings cannot be read", async () => {
    stubEarnings({
      'GET /earnings': {
        status: 403,
        body: { statusCode: 403, code: 'FORBIDDEN', message: 'Only creators have earnings' },
      },
    });
    renderApp('/creators/dashboard/earnings');

    expect(await screen.findByRole('alert')).toHaveTextContent('Only creators have earnings');
  });

  it("shows the dates in the creator's time zone, with its name", async () => {
    stubEarnings(signedInAs(aCreator({ timeZone: 'America/Los_Angeles' })));
    renderApp('/creators/dashboard/earnings');

    const table = await screen.findByRole('table', { name: 'Sales by event' });
    expect(within(table).getByRole('row', { name: /Jazz Night/ })).toHaveTextContent(
      'Mar 5, 2030, 10:30 AM PST',
    );
  });

  it('says which part failed to load, and shows it after "Try again"', async () => {
    let failing = true;
    stubEarnings({
      'GET /payouts': () =>
        failing
          ? { status: 403, body: { statusCode: 403, code: 'FORBIDDEN', message: 'Payouts are resting' } }
          : { body: payouts },
    });
    const { user } = renderApp('/creators/dashboard/earnings');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Payouts are resting');
    // The rest of the screen does not wait for the part that failed.
    expect(screen.getByRole('table', { name: 'Sales by event' })).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Payouts' })).not.toBeInTheDocument();

    failing = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));

    expect(await screen.findByRole('table', { name: 'Payouts' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
