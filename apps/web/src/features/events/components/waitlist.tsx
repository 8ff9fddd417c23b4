import { shownTicketType, type Event } from '@stagedoor/shared/events';
import type { WaitlistPlace } from '@stagedoor/shared/waitlist';
import { counted } from '@stagedoor/shared/words';
import type { UseQueryResult } from '@tanstack/react-query';
import { Hourglass, ListOrdered } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button, ButtonLink } from '../../../components/ui/button';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDeadline, formatTotal } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useBuyHeldTickets, useJoinWaitlist, useLeaveWaitlist } from '../api/waitlist';
import { useGoToOrder } from '../lib/use-go-to-order';
import { QuantitySelector } from './quantity-selector';

/**
 * A sold-out show's waitlist on its event page (packages/shared/src/waitlist.ts): the tickets held for
 * the fan when their turn came, their way into the line, and their place in it.
 */

const HELD_TEXT =
  'Your turn on the waitlist came. Buy before the hold ends, or the tickets go to the next fan in line.';
const JOIN_TEXT = 'Join the waitlist: if tickets come back, they are held for you and we email you.';
const DECLINED_TEXT = 'The tickets are no longer held for you.';
const LEFT_TEXT = 'You left the waitlist.';

/** "2 tickets": what the fan waits for, or what is held for them (a place in line names its quantity). */
const ticketsOf = (place: WaitlistPlace) =>
  place.quantity === null ? 'Tickets' : counted(place.quantity, 'ticket');

type Offer = NonNullable<WaitlistPlace['offer']>;

type HeldTicketsProps = {
  eventId: number;
  place: WaitlistPlace;
  offer: Offer;
  now: number;
  timeZone: string;
};

/**
 * Tickets held for the fan (their turn in line came): how many, until when in their time zone, of which
 * type (unless the event's one) and for how much; "Buy now" takes them, "No thanks" lets them go to the
 * next fan. Shown whether or not the event is still sold out: they are the fan's until the hold ends.
 */
export function HeldTickets({ eventId, place, offer, now, timeZone }: HeldTicketsProps) {
  const headingId = useId();
  const buy = useBuyHeldTickets(eventId);
  const decline = useLeaveWaitlist(eventId);
  const goToOrder = useGoToOrder();
  const typeName = shownTicketType(offer.ticketType);
  const isBusy = buy.isPending || decline.isPending;

  const buyNow = async () => {
    try {
      goToOrder(await buy.mutateAsync(offer.orderId));
    } catch (error) {
      notify(errorMessage(error, 'Failed to buy the tickets held for you'), 'error');
    }
  };
  const noThanks = async () => {
    try {
      await decline.mutateAsync();
      notify(DECLINED_TEXT);
    } catch (error) {
      notify(errorMessage(error, 'Failed to let the tickets go'), 'error');
    }
  };

  return (
    <section
      aria-labelledby={headingId}
      className="space-y-3 rounded-xl bg-white p-4 shadow-sm ring-2 ring-brand-500"
    >
      <h2 id={headingId} className="flex gap-2 font-semibold text-slate-900">
        <Hourglass aria-hidden className="mt-0.5 size-5 shrink-0 text-brand-600" />
        {`${ticketsOf(place)} held for you until ${formatDeadline(offer.expiresAt, timeZone, now)}`}
      </h2>
      <p className="text-sm text-slate-600">{HELD_TEXT}</p>
      <dl className="space-y-1 text-sm">
        {typeName ? (
          <div className="flex items-baseline justify-between gap-4">
            <dt className="text-slate-600">Ticket type</dt>
            <dd className="font-medium text-slate-900">{typeName}</dd>
          </div>
        ) : null}
        <div className="flex items-baseline justify-between gap-4">
          <dt className="text-slate-600">Total</dt>
          <dd className="text-base font-bold text-slate-900">{formatTotal(offer.total)}</dd>
        </div>
      </dl>
      <Button onClick={buyNow} disabled={isBusy} className="w-full" size="lg">
        {buy.isPending ? 'Processing...' : 'Buy now'}
      </Button>
      <Button onClick={noThanks} disabled={isBusy} variant="secondary" className="w-full">
        No thanks
      </Button>
    </section>
  );
}

type WaitlistLineProps = {
  event: Event;
  place: UseQueryResult<WaitlistPlace>;
  /** The event sells but has no ticket left: the line is open to join. */
  soldOut: boolean;
  /** The most tickets the fan may wait for (at least 1: the server words a refusal). */
  maxQuantity: number;
};

/**
 * Below the event's availability, for a signed-in fan who may buy it: their place in line while they
 * wait, or the way in while it is sold out. Tickets held for them show apart (HeldTickets).
 */
export function WaitlistLine({ event, place, soldOut, maxQuantity }: WaitlistLineProps) {
  if (!place.data) {
    if (!soldOut) return null;
    return place.isError ? (
      <LoadError
        message="Your place on the waitlist could not be loaded."
        onRetry={() => void place.refetch()}
        isRetrying={place.isFetching}
        className="p-4"
      />
    ) : (
      <Spinner label="Loading your place on the waitlist" />
    );
  }
  switch (place.data.status) {
    case 'waiting':
      return <WaitingInLine eventId={event.id} place={place.data} />;
    case 'none':
      return soldOut ? <JoinWaitlist eventId={event.id} maxQuantity={maxQuantity} /> : null;
    case 'offered':
      return null;
  }
}

/** Their place in line, and the way out of it. */
function WaitingInLine({ eventId, place }: { eventId: number; place: WaitlistPlace }) {
  const leave = useLeaveWaitlist(eventId);
  const leaveLine = async () => {
    try {
      await leave.mutateAsync();
      notify(LEFT_TEXT);
    } catch (error) {
      notify(errorMessage(error, 'Failed to leave the waitlist'), 'error');
    }
  };
  return (
    <section aria-label="Waitlist" className="space-y-3 border-t border-slate-200 pt-4">
      <p role="status" className="flex gap-2 text-sm text-slate-700">
        <ListOrdered aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-600" />
        {`You are on the waitlist: number ${place.position ?? 1} in line for ${ticketsOf(place)}. We will email you if tickets come back.`}
      </p>
      <Button onClick={leaveLine} disabled={leave.isPending} variant="secondary" className="w-full">
        {leave.isPending ? 'Leaving...' : 'Leave the waitlist'}
      </Button>
    </section>
  );
}

/** How many tickets to wait for, and "Join the waitlist". */
function JoinWaitlist({ eventId, maxQuantity }: { eventId: number; maxQuantity: number }) {
  const [quantity, setQuantity] = useState(1);
  const join = useJoinWaitlist(eventId);
  // The server names the field it refuses (the tickets are on sale again, the fan's limit): shown there.
  const reasonOf = (error: unknown) => (error instanceof ApiError ? error.fields.quantity : undefined);
  const reason = reasonOf(join.error);

  const submit = async (form: FormEvent) => {
    form.preventDefault();
    try {
      await join.mutateAsync({ quantity });
    } catch (error) {
      if (!reasonOf(error)) notify(errorMessage(error, 'Failed to join the waitlist'), 'error');
    }
  };

  return (
    <form aria-label="Waitlist" onSubmit={submit} className="space-y-3 border-t border-slate-200 pt-4">
      <p className="text-sm text-slate-700">{JOIN_TEXT}</p>
      <div className="space-y-1.5">
        <QuantitySelector
          value={quantity}
          min={1}
          max={maxQuantity}
          onChange={(chosen) => {
            join.reset();
            setQuantity(chosen);
          }}
        />
        {reason ? <p className="text-sm text-red-600">{reason}</p> : null}
      </div>
      <Button type="submit" disabled={join.isPending} className="w-full" size="lg">
        {join.isPending ? 'Joining...' : 'Join the waitlist'}
      </Button>
    </form>
  );
}

const HELD_SIGN_IN_TEXT = 'Tickets held for you on the waitlist? Sign in to buy them.';

/**
 * A visitor's way into the line: an account first, then back to this event's page. A fan with an
 * account signs in instead, and finds their place (or the tickets held for them) on the same page.
 * `held`: they came from the mail of their turn (HELD_TICKETS_PARAM), so signing in comes first.
 */
export function JoinWaitlistLink({ eventId, held }: { eventId: number; held: boolean }) {
  const back = paths.eventDetails(eventId);
  if (held) {
    return (
      <div className="space-y-3 border-t border-slate-200 pt-4">
        <p className="text-sm text-slate-700">{HELD_SIGN_IN_TEXT}</p>
        <ButtonLink to={paths.userLogin(back)} variant="secondary" className="w-full">
          Sign in
        </ButtonLink>
      </div>
    );
  }
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4">
      <p className="text-sm text-slate-700">{JOIN_TEXT}</p>
      <ButtonLink to={paths.userRegister(back)} className="w-full" size="lg">
        Join the waitlist
      </ButtonLink>
      <p className="text-sm text-slate-600">
        Already in line, or have an account? <TextLink to={paths.userLogin(back)}>Sign in</TextLink>
      </p>
    </div>
  );
}
