import { eventState } from '@stagedoor/shared/event-state';
import type { EventRow } from '../modules/events/events.tables';
import type { Deps } from '../deps';
import { EVENT_NOT_FOUND_MESSAGE, findEvent } from '../modules/events/events.service';
import { hadRefund, summarizeOrders } from '../modules/orders/orders.service';
import { isCreatorOf, noSeatReason, seatsOf } from '../policy';
import type { LiveAccount } from './context';
import { LiveError } from './handlers';

type AccessDeps = Pick<Deps, 'db'>;

/** The account's seats in the event (policy.ts seatsOf), its tickets counted by the orders module. */
export function seatsIn(deps: AccessDeps, account: LiveAccount, event: Pick<EventRow, 'id' | 'creatorId'>) {
  return seatsOf(account, event, async () => (await summarizeOrders(deps, account, event.id)).tickets);
}

async function existingEvent(deps: AccessDeps, eventId: number): Promise<EventRow> {
  const event = await findEvent(deps, eventId);
  if (!event) throw new LiveError('EVENT_NOT_FOUND', EVENT_NOT_FOUND_MESSAGE);
  return event;
}

/** The event and the account's seats in it (seatsIn), if it has any; else a LiveError saying why not. */
export async function watchableEvent(
  deps: AccessDeps,
  account: LiveAccount,
  eventId: number,
): Promise<{ event: EventRow; seats: number }> {
  const event = await existingEvent(deps, eventId);
  const seats = await seatsIn(deps, account, event);
  if (seats > 0) return { event, seats };
  const { code, message } = noSeatReason(event, await hadRefund(deps, account, event.id));
  throw new LiveError(code, message);
}

/** The event, if the account created it; else a LiveError with `refusal` (which names the action). */
export async function ownedEvent(
  deps: AccessDeps,
  account: LiveAccount,
  eventId: number,
  refusal: string,
): Promise<EventRow> {
  const event = await existingEvent(deps, eventId);
  if (!isCreatorOf(account, event)) throw new LiveError('FORBIDDEN', refusal);
  return event;
}

/** How long before its start a ticket holder is given TURN credentials for a show (it may start early). */
const RELAY_BEFORE_START_MS = 60 * 60_000;

/**
 * Whether the account may relay a show's media through TURN, at the operator's cost: its creator while
 * it may go live (active, not cancelled), a ticket holder while it is live, on, or starts within the
 * hour. Anyone else, or any other time, connects without a relay.
 */
export async function mayRelay(
  deps: AccessDeps,
  isLive: (eventId: number) => Promise<boolean>,
  account: LiveAccount,
  eventId: number,
  now: Date,
): Promise<boolean> {
  const event = await findEvent(deps, eventId);
  if (!event) return false;
  const state = eventState(event, now);
  if (isCreatorOf(account, event)) return state.streams;
  if (state.cancelled || (await seatsIn(deps, account, event)) === 0) return false;
  if (state.phase === 'on' || (await isLive(eventId))) return true;
  return state.phase === 'upcoming' && event.date.getTime() - now.getTime() <= RELAY_BEFORE_START_MS;
}
