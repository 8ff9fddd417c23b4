import type { EventAnalytics } from '@stagedoor/shared/analytics';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { aCreator, anEvent, signedInAs, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const creator = aCreator({ timeZone: 'America/Los_Angeles' });

/** Event 4's numbers: sales on two days with a quiet one between, visits, a show of three samples. */
function someAnalytics(): EventAnalytics {
  return {
    timeZone: 'America/Los_Angeles',
    sales: {
      tickets: 3,
      revenue: 75,
      perDay: [
        { day: '2026-02-28', tickets: 2, revenue: 50 },
        { day: '2026-03-01', tickets: 0, revenue: 0 },
        { day: '2026-03-02', tickets: 1, revenue: 25 },
      ],
      perType: [{ name: 'General admission', tickets: 3, revenue: 75 }],
    },
    funnel: { pageViews: 8, checkoutsStarted: 4, checkoutsCompleted: 2 },
    viewers: {
      sampleIntervalS: 60,
      samples: [
        { at: '2026-03-03T04:00:00.000Z', viewers: 1 },
        { at: '2026-03-03T04:01:00.000Z', viewers: 3 },
        { at: '2026-03-03T04:02:00.000Z', viewers: 2 },
      ],
      peak: 3,
      average: 2,
    },
    chatMessages: 5,
  };
}

function noAnalytics(): EventAnalytics {
  return {
    timeZone: 'UTC',
    sales: {
      tickets: 0,
      revenue: 0,
      perDay: [],
      perType: [{ name: 'General admission', tickets: 0, revenue: 0 }],
    },
    funnel: { pageViews: 0, checkoutsStarted: 0, checkoutsCompleted: 0 },
    viewers: { sampleIntervalS: 60, samples: [], peak: 0, average: 0 },
    chatMessages: 0,
  };
}

/** The rows of a table, each as its cells' text. */
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...(row as HTMLTableRowElement).cells].map((cell) => cell.textContent));

function showAnalytics(analytics: EventAnalytics) {
  stubApi({
    ...signedInAs(creator),
    'GET /events/4': { body: anEvent() },
    'GET /events/4/analytics': { body: analytics },
  });
  return renderApp('/creators/dashboard/events/4/analytics');
}

// jsdom lays nothing out: each chart's container measures as a phone's would.
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(0, 0, 320, 256));
});

describe('show analytics', () => {
  it('shows the figures, then each chart with its numbers as a table for screen readers', async () => {
    showAnalytics(someAnalytics());

    expect(await screen.findByRole('heading', { level: 1, name: 'Show analytics' })).toBeInTheDocument();
    expect(await screen.findByText('Jazz Night')).toBeInTheDocument();
    const figure = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling;
    expect(figure('Tickets sold')).toHaveTextContent('3');
    expect(figure('Revenue')).toHaveTextContent('$75.00');
    expect(figure('Page visitors')).toHaveTextContent('8');
    expect(figure('Checkouts started')).toHaveTextContent('4');
    expect(figure('Purchases')).toHaveTextContent('2');
    expect(figure('Peak viewers')).toHaveTextContent('3');
    expect(figure('Average viewers')).toHaveTextContent('2.0');
    expect(figure('Chat messages')).toHaveTextContent('5');

    const sales = screen.getByRole('region', { name: 'Sales per day' });
    expect(within(sales).getByRole('figure')).toHaveAccessibleName(
      'Tickets sold each day (days in America/Los_Angeles time): 3 tickets for $75.00 in all.',
    );
    // Drawn: a bar for each day that sold (the quiet day's has no height).
    expect(sales.querySelectorAll('.recharts-bar-rectangle')).toHaveLength(2);
    expect(rowsOf(within(sales).getByRole('table', { name: 'Sales per day' }))).toEqual([
      ['Day', 'Tickets', 'Revenue'],
      ['Feb 28, 2026', '2', '$50.00'],
      ['Mar 1, 2026', '0', '$0.00'],
      ['Mar 2, 2026', '1', '$25.00'],
    ]);

    expect(rowsOf(screen.getByRole('table', { name: 'Sales per ticket type' }))).toEqual([
      ['Type', 'Tickets', 'Revenue'],
      ['General admission', '3', '$75.00'],
    ]);

    const funnel = within(screen.getByRole('region', { name: 'From visit to purchase' }));
    expect(funnel.getAllByRole('listitem').map((step) => step.textContent)).toEqual([
      'Event page visitors8',
      "Checkouts started450% of the page's visitors",
      "Purchases225% of the page's visitors",
    ]);

    const viewers = screen.getByRole('region', { name: 'Viewers during the show' });
    expect(within(viewers).getByRole('figure')).toHaveAccessibleName(
      'Viewers counted every minute while the show was live (times in America/Los_Angeles time): at most 3, 2.0 on average.',
    );
    expect(viewers.querySelector('.recharts-area-curve')).toBeInTheDocument();
    // 4:00 UTC on March 3rd is 8:00 PM on March 2nd in Los Angeles.
    expect(rowsOf(within(viewers).getByRole('table', { name: 'Viewers during the show' }))).toEqual([
      ['Time', 'Viewers'],
      ['Mar 2, 8:00 PM', '1'],
      ['Mar 2, 8:01 PM', '3'],
      ['Mar 2, 8:02 PM', '2'],
    ]);
  });

  it('says there is nothing yet where there is nothing to chart', async () => {
    showAnalytics(noAnalytics());

    expect(await screen.findByText('No tickets sold yet.')).toBeInTheDocument();
    expect(
      screen.getByText(
        'No visits yet: each visitor of the event page and its checkout is counted once a day.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText('No viewers yet: they are counted every minute while your show is live.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
    expect(screen.getByText('Tickets sold', { selector: 'dt' }).nextElementSibling).toHaveTextContent('0');
  });

  it("shows the server's refusal with a way to ask again, and the numbers once they come", async () => {
    let refused = true;
    stubApi({
      ...signedInAs(creator),
      'GET /events/4': { body: anEvent({ creatorId: 99 }) },
      'GET /events/4/analytics': () =>
        refused
          ? {
              status: 403,
              body: { statusCode: 403, code: 'FORBIDDEN', message: 'You can only manage your own events' },
            }
          : { body: someAnalytics() },
    });
    const { user } = renderApp('/creators/dashboard/events/4/analytics');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You can only manage your own events');
    expect(screen.queryByText('Tickets sold')).not.toBeInTheDocument();

    refused = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Sales per day' })).toBeInTheDocument();
  });
});
