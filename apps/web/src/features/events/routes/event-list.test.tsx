import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { anEvent, stubApi } from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { EVENTS_PAGE_SIZE } from '../api/events';

/** An IntersectionObserver whose targets the test can scroll into view. */
function stubIntersectionObserver() {
  const observers = new Set<{ callback: IntersectionObserverCallback; targets: Element[] }>();
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      private readonly entry: { callback: IntersectionObserverCallback; targets: Element[] };
      constructor(callback: IntersectionObserverCallback) {
        this.entry = { callback, targets: [] };
        observers.add(this.entry);
      }
      observe(target: Element) {
        this.entry.targets.push(target);
      }
      disconnect() {
        observers.delete(this.entry);
      }
    },
  );
  return () =>
    observers.forEach(({ callback, targets }) =>
      callback(
        targets.map((target) => ({ target, isIntersecting: true }) as IntersectionObserverEntry),
        {} as IntersectionObserver,
      ),
    );
}

const page = (from: number, count: number) =>
  Array.from({ length: count }, (_, index) => anEvent({ id: from + index, name: `Show ${from + index}` }));

describe('event list', () => {
  it("says 'No upcoming events available at the moment.' when there are none", async () => {
    stubApi({ 'GET /events': { body: [] } });
    renderApp('/events');

    expect(await screen.findByText('No upcoming events available at the moment.')).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('shows each event as a card with its badge, price, stock and links', async () => {
    stubApi({
      'GET /events': {
        body: [anEvent({ id: 9, name: 'Jazz Night', price: 12.5, ticketsLeft: 8, image: null })],
      },
    });
    renderApp('/events');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    expect(within(card).getByText('Active')).toBeInTheDocument();
    expect(within(card).getByText('$12.50')).toBeInTheDocument();
    expect(within(card).getByText('8 tickets left')).toBeInTheDocument();
    expect(within(card).getByRole('img', { name: 'Jazz Night' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Get Your Tickets' })).toHaveAttribute('href', '/events/9');
    expect(within(card).getByRole('link', { name: 'Grace Hopper' })).toHaveAttribute(
      'href',
      '/creator/grace',
    );
  });

  it('puts a placeholder in place of an image that fails to load', async () => {
    stubApi({ 'GET /events': { body: [anEvent({ image: 'gone.png' })] } });
    renderApp('/events');

    const card = await screen.findByRole('article', { name: 'Jazz Night' });
    const image = within(card).getByRole('img', { name: 'Jazz Night' });
    expect(image).toHaveAttribute('src', '/api/events/image/gone.png');
    fireEvent.error(image);

    expect(within(card).getByRole('img', { name: 'Jazz Night' }).tagName).toBe('DIV');
  });

  it('loads the next page when the end of the list scrolls into view, and stops after a short page', async () => {
    const scrollIntoView = stubIntersectionObserver();
    const calls = stubApi({
      'GET /events': ({ query }) => {
        const offset = Number(query.get('offset'));
        return { body: offset === 0 ? page(1, EVENTS_PAGE_SIZE) : page(offset + 1, 2) };
      },
    });
    renderApp('/events');

    expect(await screen.findAllByRole('article')).toHaveLength(EVENTS_PAGE_SIZE);
    scrollIntoView();

    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(EVENTS_PAGE_SIZE + 2));
    expect(calls.map(({ query }) => query.toString())).toEqual([
      `limit=${EVENTS_PAGE_SIZE}&offset=0`,
      `limit=${EVENTS_PAGE_SIZE}&offset=${EVENTS_PAGE_SIZE}`,
    ]);
    expect(screen.queryByRole('button', { name: 'Load more events' })).not.toBeInTheDocument();
  });

  it("says 'Error fetching events' when the list cannot be loaded", async () => {
    stubApi({
      'GET /events': { status: 429, body: { statusCode: 429, code: 'RATE_LIMITED', message: 'Slow down' } },
    });
    renderApp('/events');

    expect(await screen.findByText('Error fetching events')).toBeInTheDocument();
  });
});
