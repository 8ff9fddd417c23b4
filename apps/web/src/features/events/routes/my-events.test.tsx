import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCreator, anEvent, daysFromNow, signedInAs, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';

const creator = aCreator();
const myEvents = `GET /events/creator/${creator.id}`;

describe('my events', () => {
  it('offers Edit only before the event and Start Stream only while it is active', async () => {
    stubApi({
      ...signedInAs(creator),
      [myEvents]: {
        body: [
          anEvent({ id: 1, name: 'Coming Up', date: daysFromNow(3), isActive: true }),
          anEvent({ id: 2, name: 'Paused', date: daysFromNow(3), isActive: false }),
          anEvent({ id: 3, name: 'Last Week', date: daysFromNow(-7), isActive: true }),
        ],
      },
    });
    renderApp('/creators/dashboard/my-events');

    const comingUp = await screen.findByRole('article', { name: 'Coming Up' });
    expect(within(comingUp).getByText('Active')).toBeInTheDocument();
    expect(within(comingUp).getByRole('link', { name: 'Edit Event' })).toHaveAttribute(
      'href',
      '/creators/dashboard/events/1/edit',
    );
    expect(within(comingUp).getByRole('link', { name: 'View' })).toHaveAttribute('href', '/events/1');
    expect(within(comingUp).getByRole('link', { name: 'Start Stream' })).toHaveAttribute(
      'href',
      '/events/1/stream',
    );

    const paused = screen.getByRole('article', { name: 'Paused' });
    expect(within(paused).getByText('Inactive')).toBeInTheDocument();
    expect(within(paused).getByRole('link', { name: 'Edit Event' })).toBeInTheDocument();
    expect(within(paused).queryByRole('link', { name: 'Start Stream' })).not.toBeInTheDocument();

    const past = screen.getByRole('article', { name: 'Last Week' });
    expect(within(past).queryByRole('link', { name: 'Edit Event' })).not.toBeInTheDocument();
    expect(within(past).getByRole('link', { name: 'Start Stream' })).toBeInTheDocument();
    expect(within(past).getByRole('button', { name: 'Delete event Last Week' })).toBeInTheDocument();
  });

  it("says 'You haven't created any events yet.' and links to the create form", async () => {
    stubApi({ ...signedInAs(creator), [myEvents]: { body: [] } });
    renderApp('/creators/dashboard/my-events');

    expect(await screen.findByText("You haven't created any events yet.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create your first event' })).toHaveAttribute(
      'href',
      '/creators/dashboard/events/create',
    );
  });

  it("shows the server's refusal to delete in the Error modal, and keeps the event", async () => {
    const refusal = 'This event has ticket sales and cannot be deleted. Set it inactive instead.';
    const calls = stubApi({
      ...signedInAs(creator),
      [myEvents]: { body: [anEvent({ id: 5, name: 'Sold Some' })] },
      'DELETE /events/5': { status: 409, body: { statusCode: 409, code: 'CONFLICT', message: refusal } },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Delete event Sold Some' }));
    const confirm = screen.getByRole('dialog', { name: 'Delete Event' });
    expect(
      within(confirm).getByText('Are you sure you want to delete the event "Sold Some"?'),
    ).toBeInTheDocument();
    expect(within(confirm).getByText('This action cannot be undone.')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));

    const error = await screen.findByRole('dialog', { name: 'Error' });
    expect(within(error).getByText(refusal)).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Delete Event' })).not.toBeInTheDocument();
    await user.click(within(error).getByRole('button', { name: 'OK' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Sold Some' })).toBeInTheDocument();
    expect(calls.filter(({ method }) => method === 'DELETE')).toHaveLength(1);
  });

  it("says 'Error deleting event' when the server gives no reason", async () => {
    stubApi({
      ...signedInAs(creator),
      [myEvents]: { body: [anEvent({ id: 5, name: 'Sold Some' })] },
      'DELETE /events/5': { status: 400 },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Delete event Sold Some' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    expect(
      within(await screen.findByRole('dialog', { name: 'Error' })).getByText('Error deleting event'),
    ).toBeInTheDocument();
  });

  it('deletes after confirmation and reloads the list without the event', async () => {
    let events = [anEvent({ id: 5, name: 'Unsold' }), anEvent({ id: 6, name: 'Keeper' })];
    stubApi({
      ...signedInAs(creator),
      [myEvents]: () => ({ body: events }),
      'DELETE /events/5': () => {
        events = events.filter(({ id }) => id !== 5);
        return { status: 204 };
      },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Delete event Unsold' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByRole('article', { name: 'Unsold' })).not.toBeInTheDocument());
    expect(screen.getByRole('article', { name: 'Keeper' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('leaves the event alone when the creator cancels', async () => {
    const calls = stubApi({
      ...signedInAs(creator),
      [myEvents]: { body: [anEvent({ id: 5, name: 'Unsold' })] },
    });
    const { user } = renderApp('/creators/dashboard/my-events');

    await user.click(await screen.findByRole('button', { name: 'Delete event Unsold' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.some(({ method }) => method === 'DELETE')).toBe(false);
  });
});
