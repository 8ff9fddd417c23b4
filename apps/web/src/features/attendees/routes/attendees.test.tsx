import type { Attendee, AttendeeMessagePreview } from '@stagedoor/shared/attendees';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  aCreator,
  anEvent,
  heldReply,
  pagesOf,
  signedInAs,
  stubApi,
  type Handler,
} from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const event = anEvent({ id: 4, name: 'Jazz Night', date: '2030-03-05T19:00:00.000Z' });
const PAGE = '/creators/dashboard/events/4/attendees';

const attendee = (overrides: Partial<Attendee>): Attendee => ({
  orderId: 1,
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  tickets: 2,
  type: 'General admission',
  orderedAt: '2030-03-01T18:30:00.000Z',
  status: 'completed',
  ...overrides,
});

const attendees = [
  attendee({ orderId: 3, name: 'Bo Diddley', email: 'bo@example.com', tickets: 1, status: 'refunded' }),
  attendee({ orderId: 2, name: 'Cy Twombly', email: 'cy@example.com', tickets: 1, status: 'disputed' }),
  attendee({ orderId: 1 }),
];

const preview: AttendeeMessagePreview = {
  subject: 'Jazz Night: Doors open early',
  html: '<p>See you at 7.</p>',
  text: 'See you at 7.',
  recipients: 2,
};

/** The creator's page of the event, with its attendees as the server lists them, searched by `search`. */
function stubAttendees(overrides: Record<string, Handler> = {}) {
  return stubApi({
    ...signedInAs(aCreator({ timeZone: 'UTC' })),
    'GET /events/4': { body: event },
    'GET /events/4/attendees': (call) => {
      const search = call.query.get('search')?.toLowerCase() ?? '';
      const found = attendees.filter(({ name, email }) => `${name} ${email}`.toLowerCase().includes(search));
      const page = pagesOf(found);
      return typeof page === 'function' ? page(call) : page;
    },
    ...overrides,
  });
}

const table = () => screen.getByRole('table', { name: 'Attendees' });
const phoneList = () => screen.getByRole('list', { name: 'Attendees' });
const rowsOf = (list: HTMLElement, role: 'row' | 'listitem') =>
  within(list)
    .getAllByRole(role)
    .map((row) => row.textContent);

describe('attendees', () => {
  it('lists who holds or held a ticket, as a table and as cards for a phone', async () => {
    stubAttendees();
    renderApp(PAGE);

    expect(await screen.findByRole('heading', { name: 'Attendees' })).toBeInTheDocument();
    expect(await screen.findByText('Jazz Night · March 5, 2030 at 7:00 PM UTC')).toBeInTheDocument();
    await screen.findByRole('table', { name: 'Attendees' });
    expect(rowsOf(table(), 'row')).toEqual([
      'NameEmailTicketsOrderedStatus',
      'Bo Diddleybo@example.com1Mar 1, 2030, 6:30 PM UTCRefunded',
      'Cy Twomblycy@example.com1Mar 1, 2030, 6:30 PM UTCDisputed',
      'Ada Lovelaceada@example.com2Mar 1, 2030, 6:30 PM UTCConfirmed',
    ]);
    expect(rowsOf(phoneList(), 'listitem')).toEqual([
      'Bo DiddleyRefundedbo@example.com1 ticket · Mar 1, 2030, 6:30 PM UTC',
      'Cy TwomblyDisputedcy@example.com1 ticket · Mar 1, 2030, 6:30 PM UTC',
      'Ada LovelaceConfirmedada@example.com2 tickets · Mar 1, 2030, 6:30 PM UTC',
    ]);
  });

  it('shows the ticket type once an order is of a named type', async () => {
    stubAttendees({
      'GET /events/4/attendees': { body: [attendee({ type: 'VIP' }), attendee({ orderId: 0 })] },
    });
    renderApp(PAGE);

    await screen.findByRole('table', { name: 'Attendees' });
    expect(
      within(table())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Name', 'Email', 'Tickets', 'Type', 'Ordered', 'Status']);
    expect(rowsOf(phoneList(), 'listitem')[0]).toContain('2 tickets · VIP · Mar 1');
  });

  it('searches as the creator types, and says when nobody matches', async () => {
    const calls = stubAttendees();
    const { user } = renderApp(PAGE);
    await screen.findByRole('table', { name: 'Attendees' });

    await user.type(screen.getByRole('searchbox', { name: 'Search' }), '  CY ');
    await waitFor(() => expect(rowsOf(table(), 'row')).toHaveLength(2));
    expect(rowsOf(table(), 'row')[1]).toContain('Cy Twombly');
    const searched = calls
      .filter(({ path }) => path === '/events/4/attendees')
      .map(({ query }) => query.toString());
    expect(searched.at(-1)).toBe('limit=50&offset=0&search=CY');

    await user.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'nobody');
    expect(await screen.findByText('Nobody matches “nobody”.')).toBeInTheDocument();
  });

  it('says so when no ticket is sold yet', async () => {
    stubAttendees({ 'GET /events/4/attendees': { body: [] } });
    renderApp(PAGE);
    expect(
      await screen.findByText('No tickets sold yet. Everyone who gets one appears here.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View the event page' })).toHaveAttribute('href', '/events/4');
  });

  it("shows the server's reason, and a retry, when the list cannot be read", async () => {
    stubAttendees({
      'GET /events/4/attendees': {
        status: 403,
        body: { statusCode: 403, code: 'FORBIDDEN', message: 'You can only manage your own events' },
      },
    });
    renderApp(PAGE);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You can only manage your own events');
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('downloads the CSV with the bearer token, named for the event', async () => {
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const csv = 'orderId,name\r\n1,Ada Lovelace\r\n';
    const calls = stubAttendees({ 'GET /events/4/attendees.csv': { body: csv, contentType: 'text/csv' } });
    const { user } = renderApp(PAGE);

    const button = await screen.findByRole('button', { name: 'Download CSV' });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1));
    expect((click.mock.contexts[0] as HTMLAnchorElement).download).toBe('attendees-jazz-night-4.csv');
    const file = vi.mocked(URL.createObjectURL).mock.lastCall?.[0] as Blob;
    await expect(file.text()).resolves.toBe(csv);
    const request = calls.find(({ path }) => path === '/events/4/attendees.csv');
    expect(request?.headers.get('Authorization')).toBe('Bearer stored-token');
    click.mockRestore();
  });
});

describe('message attendees', () => {
  async function openDialog() {
    const { user } = renderApp(PAGE);
    await user.click(await screen.findByRole('button', { name: 'Message attendees' }));
    return { user, dialog: await screen.findByRole('dialog', { name: 'Message attendees' }) };
  }

  it('shows the mail and how many fans it goes to, asks once more, then sends it', async () => {
    const sent = heldReply();
    const calls = stubAttendees({
      'POST /events/4/message/preview': { body: preview },
      'POST /events/4/message': sent.handler,
    });
    const { user, dialog } = await openDialog();

    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByText('Subject is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Message is required')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: 'Subject' }), ' Doors open early ');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'See you at 7.');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));

    const mail = await within(dialog).findByTitle('The email');
    expect(mail).toHaveAttribute('srcdoc', '<p>See you at 7.</p>');
    expect(mail).toHaveAttribute('sandbox', '');
    expect(within(dialog).getByText('Jazz Night: Doors open early')).toBeInTheDocument();
    const asked = { subject: 'Doors open early', body: 'See you at 7.' };
    expect(calls.find(({ path }) => path === '/events/4/message/preview')?.body).toEqual(asked);

    // Back to the words, kept, and forward again.
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    expect(within(dialog).getByRole('textbox', { name: 'Subject' })).toHaveValue(' Doors open early ');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Continue' }));

    expect(
      within(dialog).getByText('Send “Doors open early” to 2 fans? It cannot be taken back once sent.'),
    ).toBeInTheDocument();
    expect(calls.some(({ method, path }) => method === 'POST' && path === '/events/4/message')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Send to 2 fans' }));
    expect(await within(dialog).findByRole('button', { name: 'Sending...' })).toBeDisabled();
    sent.send({ body: { recipients: 2 } });

    expect(await screen.findByText('Message sent to 2 fans.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      calls
        .filter(({ method, path }) => method === 'POST' && path === '/events/4/message')
        .map(({ body }) => body),
    ).toEqual([asked]);
  });

  it('will not go on to send when nobody holds a ticket', async () => {
    stubAttendees({ 'POST /events/4/message/preview': { body: { ...preview, recipients: 0 } } });
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Hello');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Anyone?');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));

    expect(
      await within(dialog).findByText(
        'Nobody holds a ticket to this event yet: there is no one to send it to.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Continue' })).toBeDisabled();
  });

  it("tells the creator the server's reason when a limit refuses the message, keeping what they wrote", async () => {
    const refusal =
      "This event's ticket holders were written 3 times in the last hour, the most there may be. Please try again in 42 minutes.";
    stubAttendees({
      'POST /events/4/message/preview': { body: preview },
      'POST /events/4/message': {
        status: 429,
        body: { statusCode: 429, code: 'RATE_LIMITED', message: refusal },
      },
    });
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Doors open early');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'See you at 7.');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Continue' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send to 2 fans' }));

    expect(await screen.findByText(refusal)).toBeInTheDocument();
    expect(await within(dialog).findByRole('textbox', { name: 'Message' })).toHaveValue('See you at 7.');
  });

  it("shows the server's field reasons next to their fields", async () => {
    stubAttendees({
      'POST /events/4/message/preview': {
        status: 400,
        body: {
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: 'Subject must be one line',
          fields: { subject: 'Subject must be one line' },
        },
      },
    });
    const { user, dialog } = await openDialog();
    await user.type(within(dialog).getByRole('textbox', { name: 'Subject' }), 'Hello');
    await user.type(within(dialog).getByRole('textbox', { name: 'Message' }), 'Hi');
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByText('Subject must be one line')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Subject' })).toHaveAttribute('aria-invalid', 'true');
  });
});
