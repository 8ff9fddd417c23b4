import { DEFAULT_MAX_PER_BUYER } from '@stagedoor/shared/limits';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { toPickerValue } from '../../../lib/dates';
import {
  aCreator,
  anEvent,
  aTicketType,
  daysFromNow,
  signedInAs,
  stubApi,
  type ApiCall,
} from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const poster = () => new File(['png'], 'poster.png', { type: 'image/png' });

type Session = ReturnType<typeof renderApp>['user'];

async function fillEvent(user: Session, date: string) {
  await user.type(await screen.findByLabelText('Event Name'), 'Jazz Night');
  await user.type(screen.getByLabelText('Description'), 'An evening of standards.');
  await user.clear(screen.getByLabelText('Price'));
  await user.type(screen.getByLabelText('Price'), '12.5');
  await user.clear(screen.getByLabelText('Maximum Tickets'));
  await user.type(screen.getByLabelText('Maximum Tickets'), '10');
  await user.type(screen.getByLabelText('Event Date'), date);
}

const sent = (calls: ApiCall[], path: string) =>
  calls.find(({ method, path: called }) => method === 'POST' && called === path)?.body as
    FormData | undefined;

describe('create event', () => {
  it('cannot be submitted without an image, and says so when the picked image is taken away', async () => {
    stubApi(signedInAs(aCreator()));
    const { user } = renderApp('/creators/dashboard/events/create');

    const submit = await screen.findByRole('button', { name: 'Create Event' });
    expect(submit).toBeDisabled();
    const image = screen.getByLabelText('Event Image');
    expect(image).toHaveAttribute('aria-required', 'true');

    await user.upload(image, poster());
    expect(submit).toBeEnabled();
    await user.upload(image, []);

    expect(image).toHaveAccessibleErrorMessage('Please select an event image');
    expect(submit).toBeDisabled();
  });

  it('refuses an image that is not JPG or PNG, or is over 5MB', async () => {
    stubApi(signedInAs(aCreator()));
    renderApp('/creators/dashboard/events/create');
    const user = userEvent.setup({ applyAccept: false });

    const image = await screen.findByLabelText('Event Image');
    await user.upload(image, new File(['gif'], 'poster.gif', { type: 'image/gif' }));
    expect(image).toHaveAccessibleErrorMessage('Please select a valid JPG or PNG image');

    await user.upload(
      image,
      new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }),
    );
    expect(image).toHaveAccessibleErrorMessage('Image size must be less than 5MB');
    expect(screen.getByRole('button', { name: 'Create Event' })).toBeDisabled();
  });

  it.each([
    ['a past day, typed', toPickerValue(daysFromNow(-1), 'UTC')],
    ['an hour of today that has passed', `${toPickerValue(daysFromNow(0), 'UTC').slice(0, 10)} 00:00`],
  ])('refuses %s with "Event date must be in the future"', async (_, date) => {
    const calls = stubApi(signedInAs(aCreator()));
    const { user } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, date);
    await user.upload(screen.getByLabelText('Event Image'), poster());
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(await screen.findByText('Event date must be in the future')).toHaveAttribute('id', 'date-error');
    expect(screen.getByLabelText('Event Date')).toHaveValue(date);
    expect(calls.some(({ method }) => method === 'POST')).toBe(false);
  });

  it('keeps typed text that is no date, and says it is not one', async () => {
    const calls = stubApi(signedInAs(aCreator()));
    const { user } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, 'next friday');
    await user.upload(screen.getByLabelText('Event Image'), poster());
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(await screen.findByText('Event date must be a valid date and time')).toHaveAttribute(
      'id',
      'date-error',
    );
    expect(screen.getByLabelText('Event Date')).toHaveValue('next friday');
    expect(calls.some(({ method }) => method === 'POST')).toBe(false);
  });

  it('sends the event as multipart with an ISO date, then lists it under My Events', async () => {
    const date = toPickerValue(daysFromNow(30), 'UTC');
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'POST /events': { status: 201, body: anEvent() },
      'GET /events/creator/3': { body: [anEvent()] },
    });
    const { user, location } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, date);
    await user.upload(screen.getByLabelText('Event Image'), poster());
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(await screen.findByText('Event created successfully!')).toBeInTheDocument();
    expect(location()).toBe('/creators/dashboard/my-events');
    const form = sent(calls, '/events');
    expect(Object.fromEntries([...(form?.entries() ?? [])].filter(([name]) => name !== 'image'))).toEqual({
      name: 'Jazz Night',
      description: 'An evening of standards.',
      price: '12.5',
      maxTickets: '10',
      // Grace's account is on UTC: the picker's text is a UTC time.
      date: `${date.replace(' ', 'T')}:00.000Z`,
      isActive: 'true',
      replayEnabled: 'true',
    });
    expect((form?.get('image') as File).name).toBe('poster.png');
  });

  it("reads the picked time in the creator's time zone, and names the zone next to the field", async () => {
    const calls = stubApi({
      ...signedInAs(aCreator({ timeZone: 'America/Los_Angeles' })),
      'POST /events': { status: 201, body: anEvent() },
      'GET /events/creator/3': { body: [anEvent()] },
    });
    const { user } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, '2030-03-05 19:30');
    expect(screen.getByLabelText('Event Date')).toHaveAccessibleDescription(
      'Pick a day and time (America/Los_Angeles), or type it as YYYY-MM-DD HH:MM (24-hour).',
    );
    await user.upload(screen.getByLabelText('Event Image'), poster());
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(await screen.findByText('Event created successfully!')).toBeInTheDocument();
    // 7:30 PM in Los Angeles (PST, UTC−8) is 3:30 AM the next day in UTC.
    expect(sent(calls, '/events')?.get('date')).toBe('2030-03-06T03:30:00.000Z');
  });

  it('sends a limit per buyer when one is set, and refuses one above the maximum tickets', async () => {
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'POST /events': { status: 201, body: anEvent() },
      'GET /events/creator/3': { body: [anEvent()] },
    });
    const { user } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, toPickerValue(daysFromNow(30), 'UTC'));
    await user.upload(screen.getByLabelText('Event Image'), poster());
    const perBuyer = screen.getByLabelText('Maximum per buyer');
    expect(perBuyer).toHaveAccessibleDescription(
      `Leave empty to allow up to ${DEFAULT_MAX_PER_BUYER} per buyer`,
    );
    await user.type(perBuyer, '11');
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(perBuyer).toHaveAccessibleErrorMessage(
      'Maximum per buyer cannot be more than the maximum tickets',
    );
    expect(calls.some(({ method }) => method === 'POST')).toBe(false);

    await user.clear(perBuyer);
    await user.type(perBuyer, '4');
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(await screen.findByText('Event created successfully!')).toBeInTheDocument();
    expect(sent(calls, '/events')?.get('maxPerBuyer')).toBe('4');
  });

  it('says a paid ticket costs at least what a card can pay, and sends nothing below it', async () => {
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'POST /events': { status: 201, body: anEvent() },
      'GET /events/creator/3': { body: [anEvent()] },
    });
    const { user } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, toPickerValue(daysFromNow(30), 'UTC'));
    await user.upload(screen.getByLabelText('Event Image'), poster());
    const price = screen.getByLabelText('Price');
    expect(price).toHaveAccessibleDescription('0 for a free event, else at least $0.50');
    await user.clear(price);
    await user.type(price, '0.33');
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(price).toHaveAccessibleErrorMessage(
      'A paid ticket costs at least $0.50, the least a card can pay; 0 makes the event free',
    );
    expect(calls.some(({ method }) => method === 'POST')).toBe(false);

    await user.clear(price);
    await user.type(price, '0.5');
    await user.click(screen.getByRole('button', { name: 'Create Event' }));
    expect(await screen.findByText('Event created successfully!')).toBeInTheDocument();
    expect(sent(calls, '/events')?.get('price')).toBe('0.5');
  });

  it("puts the server's field reasons beside their fields", async () => {
    stubApi({
      ...signedInAs(aCreator()),
      'POST /events': {
        status: 400,
        body: {
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          message: 'Maximum tickets must be at most 100000',
          fields: {
            maxTickets: 'Maximum tickets must be at most 100000',
            image: 'The image could not be read',
          },
        },
      },
    });
    const { user, location } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, toPickerValue(daysFromNow(30), 'UTC'));
    await user.upload(screen.getByLabelText('Event Image'), poster());
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(await screen.findByText('Maximum tickets must be at most 100000')).toHaveAttribute(
      'id',
      'maxTickets-error',
    );
    expect(screen.getByLabelText('Event Image')).toHaveAccessibleErrorMessage('The image could not be read');
    expect(screen.getByText('The image could not be read')).toHaveAttribute('id', 'image-error');
    expect(location()).toBe('/creators/dashboard/events/create');
  });

  it("says 'Failed to create event' when the server gives no reason", async () => {
    stubApi({ ...signedInAs(aCreator()), 'POST /events': { status: 400 } });
    const { user } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, toPickerValue(daysFromNow(30), 'UTC'));
    await user.upload(screen.getByLabelText('Event Image'), poster());
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(await screen.findByText('Failed to create event')).toBeInTheDocument();
  });
});

describe('ticket types', () => {
  const typeGroup = (n: number) => screen.getByRole('group', { name: `Ticket type ${n}` });

  it('lists types once one is added, each with its price or pay what you want, and sends them as JSON', async () => {
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'POST /events': { status: 201, body: anEvent() },
      'GET /events/creator/3': { body: [anEvent()] },
    });
    const { user } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, toPickerValue(daysFromNow(30), 'UTC'));
    await user.upload(screen.getByLabelText('Event Image'), poster());
    await user.click(screen.getByRole('button', { name: 'Add a ticket type' }));

    // The price and stock typed so far become the first type's.
    const first = typeGroup(1);
    expect(within(first).getByLabelText('Name')).toHaveValue('General admission');
    expect(within(first).getByLabelText('Price')).toHaveValue(12.5);
    expect(within(first).getByLabelText('Maximum Tickets')).toHaveValue(10);
    await user.clear(within(first).getByLabelText('Name'));
    await user.type(within(first).getByLabelText('Name'), 'Early bird');

    const second = typeGroup(2);
    await user.type(within(second).getByLabelText('Name'), 'Supporter');
    await user.click(within(second).getByRole('switch', { name: 'Pay what you want' }));
    await user.clear(within(second).getByLabelText('Minimum'));
    await user.type(within(second).getByLabelText('Minimum'), '5');
    await user.clear(within(second).getByLabelText('Suggested amount'));
    await user.type(within(second).getByLabelText('Suggested amount'), '15');
    await user.clear(within(second).getByLabelText('Maximum Tickets'));
    await user.type(within(second).getByLabelText('Maximum Tickets'), '20');
    await user.type(within(second).getByLabelText('Sales end (optional)'), '2030-03-01 18:00');
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(await screen.findByText('Event created successfully!')).toBeInTheDocument();
    const form = sent(calls, '/events');
    expect(form?.has('price')).toBe(false);
    expect(form?.has('maxTickets')).toBe(false);
    expect(JSON.parse(String(form?.get('ticketTypes')))).toEqual([
      {
        name: 'Early bird',
        price: 12.5,
        maxTickets: 10,
        salesStart: null,
        salesEnd: null,
        payWhatYouWant: null,
      },
      {
        name: 'Supporter',
        maxTickets: 20,
        salesStart: null,
        salesEnd: '2030-03-01T18:00:00.000Z',
        payWhatYouWant: { minimum: 5, suggested: 15 },
      },
    ]);
  });

  it("judges each type by the API's rules before sending, beside its field", async () => {
    const calls = stubApi(signedInAs(aCreator()));
    const { user } = renderApp('/creators/dashboard/events/create');

    await fillEvent(user, toPickerValue(daysFromNow(30), 'UTC'));
    await user.upload(screen.getByLabelText('Event Image'), poster());
    await user.click(screen.getByRole('button', { name: 'Add a ticket type' }));
    await user.type(within(typeGroup(2)).getByLabelText('Name'), 'general ADMISSION');
    await user.click(within(typeGroup(2)).getByRole('switch', { name: 'Pay what you want' }));
    await user.clear(within(typeGroup(2)).getByLabelText('Minimum'));
    await user.type(within(typeGroup(2)).getByLabelText('Minimum'), '10');
    await user.clear(within(typeGroup(2)).getByLabelText('Suggested amount'));
    await user.type(within(typeGroup(2)).getByLabelText('Suggested amount'), '5');
    await user.click(screen.getByRole('button', { name: 'Create Event' }));

    expect(within(typeGroup(2)).getByLabelText('Suggested amount')).toHaveAccessibleErrorMessage(
      'The suggested amount cannot be below the minimum',
    );
    expect(await screen.findByText('Each ticket type needs a name of its own')).toBeInTheDocument();
    expect(calls.some(({ method }) => method === 'POST')).toBe(false);
  });

  it("keeps each type's id on an edit, drops a removed one, and shows the server's reason beside its field", async () => {
    const reason = 'Maximum tickets cannot be lower than the 12 tickets already sold';
    const listed = anEvent({
      id: 4,
      date: daysFromNow(10),
      ticketTypes: [
        aTicketType({ id: 41, name: 'Early bird', price: 15, maxTickets: 20 }),
        aTicketType({ id: 42, name: 'Front row', price: 60, maxTickets: 10 }),
        aTicketType({ id: 43, name: 'Supporter', price: 5, payWhatYouWant: { minimum: 5, suggested: 20 } }),
      ],
    });
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'GET /events/creators/4/details': { body: listed },
      'POST /events/4': {
        status: 409,
        body: {
          statusCode: 409,
          code: 'CONFLICT',
          message: reason,
          fields: { 'ticketTypes.1.maxTickets': reason },
        },
      },
    });
    const { user } = renderApp('/creators/dashboard/events/4/edit');

    expect(await screen.findByRole('heading', { name: 'Ticket types' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Price U$D')).not.toBeInTheDocument();
    expect(within(typeGroup(3)).getByLabelText('Suggested amount')).toHaveValue(20);
    await user.click(screen.getByRole('button', { name: 'Remove Front row' }));
    await user.clear(within(typeGroup(2)).getByLabelText('Maximum Tickets'));
    await user.type(within(typeGroup(2)).getByLabelText('Maximum Tickets'), '8');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await within(typeGroup(2)).findByText(reason)).toHaveAttribute(
      'id',
      'ticketTypes.1.maxTickets-error',
    );
    const types = JSON.parse(String(sent(calls, '/events/4')?.get('ticketTypes'))) as { id: number }[];
    expect(types.map(({ id }) => id)).toEqual([41, 43]);
  });
});

describe('edit event', () => {
  const event = anEvent({ id: 4, price: 25, maxTickets: 100, date: daysFromNow(10), image: 'jazz.png' });

  it('loads the event, rounds the price, switches it off and saves every field', async () => {
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'GET /events/creators/4/details': { body: event },
      'POST /events/4': { body: { ...event, isActive: false } },
    });
    const { user, location } = renderApp('/creators/dashboard/events/4/edit');

    expect(await screen.findByText('Loading event details...')).toBeInTheDocument();
    expect(await screen.findByLabelText('Event Name')).toHaveValue('Jazz Night');
    expect(screen.getByAltText('Event Image preview')).toHaveAttribute('src', '/api/events/image/jazz.png');
    expect(screen.getByLabelText('Event Date')).toHaveValue(toPickerValue(event.date, 'UTC'));

    const price = screen.getByLabelText('Price U$D');
    await user.clear(price);
    await user.type(price, '19.999');
    expect(price).toHaveValue(20);

    const active = screen.getByRole('switch', { name: 'Active' });
    expect(active).toBeChecked();
    await user.click(active);
    expect(active).not.toBeChecked();
    const replay = screen.getByRole('switch', { name: 'Replay' });
    expect(replay).toBeChecked();
    await user.click(replay);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Event updated successfully!')).toBeInTheDocument();
    expect(location()).toBe('/creators/dashboard/my-events');
    const form = sent(calls, '/events/4');
    expect(form?.get('price')).toBe('20');
    expect(form?.get('isActive')).toBe('false');
    expect(form?.get('replayEnabled')).toBe('false');
    expect(form?.get('date')).toBe(event.date);
    expect(form?.has('maxPerBuyer')).toBe(false);
    expect(form?.has('image')).toBe(false);
  });

  it('sends an untouched date exactly as stored, even a past one, so a started event can be renamed', async () => {
    const started = anEvent({ id: 4, date: daysFromNow(-2) });
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'GET /events/creators/4/details': { body: started },
      'POST /events/4': { body: started },
    });
    const { user } = renderApp('/creators/dashboard/events/4/edit');

    expect(await screen.findByLabelText('Event Date')).toHaveValue(toPickerValue(started.date, 'UTC'));
    await user.type(screen.getByLabelText('Event Name'), ' (encore)');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Event updated successfully!')).toBeInTheDocument();
    const form = sent(calls, '/events/4');
    expect(form?.get('name')).toBe('Jazz Night (encore)');
    expect(form?.get('date')).toBe(started.date);
  });

  it("puts the server's refusal of a changed past date beside the date", async () => {
    const reason = 'Event date must be in the future';
    stubApi({
      ...signedInAs(aCreator()),
      'GET /events/creators/4/details': { body: event },
      'GET /events/4/promo-codes': { body: [] },
      'POST /events/4': {
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_FAILED', message: reason, fields: { date: reason } },
      },
    });
    const { user } = renderApp('/creators/dashboard/events/4/edit');

    const date = await screen.findByLabelText('Event Date');
    await user.clear(date);
    await user.type(date, `${toPickerValue(daysFromNow(0), 'UTC').slice(0, 10)} 00:00`);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText(reason)).toHaveAttribute('id', 'date-error');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows the event's own limit per buyer, and sends the maximum tickets once it is emptied", async () => {
    const limited = anEvent({ id: 4, maxTickets: 100, maxPerBuyer: 4, date: daysFromNow(10) });
    const calls = stubApi({
      ...signedInAs(aCreator()),
      'GET /events/creators/4/details': { body: limited },
      'POST /events/4': { body: limited },
    });
    const { user } = renderApp('/creators/dashboard/events/4/edit');

    const perBuyer = await screen.findByLabelText('Maximum per buyer');
    expect(perBuyer).toHaveValue(4);
    await user.clear(perBuyer);
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Event updated successfully!')).toBeInTheDocument();
    expect(sent(calls, '/events/4')?.get('maxPerBuyer')).toBe('100');
  });

  it('previews a new image and can remove it again', async () => {
    stubApi({ ...signedInAs(aCreator()), 'GET /events/creators/4/details': { body: event } });
    const { user } = renderApp('/creators/dashboard/events/4/edit');

    const image = await screen.findByLabelText('Event Image');
    expect(image).not.toHaveAttribute('aria-required');
    await user.upload(image, poster());
    expect(screen.getByAltText('Event Image preview')).toHaveAttribute('src', 'blob:preview');

    await user.click(screen.getByRole('button', { name: 'Remove New Image' }));

    expect(screen.getByAltText('Event Image preview')).toHaveAttribute('src', '/api/events/image/jazz.png');
    expect(screen.queryByRole('button', { name: 'Remove New Image' })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Event Image')).not.toHaveAccessibleErrorMessage();
  });

  it("says 'Failed to update event' when the server gives no reason", async () => {
    stubApi({
      ...signedInAs(aCreator()),
      'GET /events/creators/4/details': { body: event },
      'POST /events/4': { status: 400 },
    });
    const { user } = renderApp('/creators/dashboard/events/4/edit');

    await user.click(await screen.findByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Failed to update event')).toBeInTheDocument();
  });
});
