import { EVENT_DURATION_MINUTES } from './money';

/**
 * Where an event stands: the one answer to "may it sell, stream, be cancelled, pay out?", read by the
 * server's rules (orders, live, money, mail) and the web's screens alike. The server's queries carry
 * the same rules in SQL (apps/server/src/modules/events/event-state.ts), tested to agree with these.
 */

/** Spec's "1h 30min": a show ends this long after its start. */
export const EVENT_DURATION_MS = EVENT_DURATION_MINUTES * 60_000;

/** By the clock alone: before the start, between the start and the end, after the end. */
export type EventPhase = 'upcoming' | 'on' | 'ended';

interface EventFacts {
  isActive: boolean;
  /** Set once, when its creator cancelled it (every buyer refunded). */
  cancelledAt: Date | string | null;
  date: Date | string;
  /** Its creator keeps replays of its shows (absent: no); with one ready, it sells after its end. */
  replayEnabled?: boolean;
  hasReplay?: boolean;
}

export interface EventState {
  phase: EventPhase;
  cancelled: boolean;
  /**
   * Tickets can be bought: active, not cancelled, and not yet started, or ended with its replay ready
   * (DESIGN.md "Replays": a ticket bought then is the replay's).
   */
  sells: boolean;
  /** It sells, and what it sells is the replay: the show has ended. */
  sellsReplay: boolean;
  /** Why tickets cannot be bought, the first reason of these that holds; null when it sells. */
  notSelling: 'cancelled' | 'inactive' | 'started' | null;
  /** Its creator may go live: active and not cancelled, whatever the clock (creators open early). */
  streams: boolean;
  /** Its creator may still cancel it: not cancelled and not ended. */
  cancellable: boolean;
  /** It ended without being cancelled: its earnings are released, it counts as a completed event. */
  tookPlace: boolean;
}

const instant = (value: Date | string | number): number =>
  typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : value.getTime();

export function phaseOf(date: Date | string, now: Date | number): EventPhase {
  const start = instant(date);
  const at = instant(now);
  if (at < start) return 'upcoming';
  return at < start + EVENT_DURATION_MS ? 'on' : 'ended';
}

export function eventState(event: EventFacts, now: Date | number): EventState {
  const phase = phaseOf(event.date, now);
  const cancelled = event.cancelledAt !== null;
  const replayOnSale = phase === 'ended' && event.replayEnabled === true && event.hasReplay === true;
  const notSelling = cancelled
    ? 'cancelled'
    : !event.isActive
      ? 'inactive'
      : phase !== 'upcoming' && !replayOnSale
        ? 'started'
        : null;
  return {
    phase,
    cancelled,
    sells: notSelling === null,
    sellsReplay: notSelling === null && replayOnSale,
    notSelling,
    streams: event.isActive && !cancelled,
    cancellable: !cancelled && phase !== 'ended',
    tookPlace: !cancelled && phase === 'ended',
  };
}
