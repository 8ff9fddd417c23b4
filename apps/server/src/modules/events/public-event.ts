import { fromCents, type Event } from '@stagedoor/shared/events';
import type { EventWithCreator } from './events.repo';
import { maxPerBuyerOf } from './per-buyer';
import { toTicketType } from './ticket-types';

/** The event in the API's words: dollars, tickets left, ISO dates, and only its creator's names. */
export function toEvent({ event, creator, ticketTypes }: EventWithCreator): Event {
  const date = event.date.toISOString();
  return {
    id: event.id,
    name: event.name,
    description: event.description,
    image: event.image,
    price: fromCents(event.priceCents),
    maxTickets: event.maxTickets,
    maxPerBuyer: maxPerBuyerOf(event),
    ticketsLeft: event.maxTickets - event.sold,
    date,
    eventDate: date,
    isActive: event.isActive,
    cancelledAt: event.cancelledAt?.toISOString() ?? null,
    replayEnabled: event.replayEnabled,
    hasReplay: event.replayEnabled && event.hasReplay,
    creatorId: event.creatorId,
    creator: {
      nickname: creator.nickname,
      firstName: creator.firstName,
      lastName: creator.lastName,
      timeZone: creator.timeZone,
    },
    ticketTypes: ticketTypes.map(toTicketType),
  };
}
