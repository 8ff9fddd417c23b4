import type { Event } from '@stagedoor/shared/events';
import { imageUrls } from '@stagedoor/shared/images';
import { Countdown } from '../../../components/ui/countdown';
import { formatLongDateTime } from '../../../lib/format';
import { useNow } from '../../../lib/use-now';
import { WAITING_MESSAGE } from '../lib/viewer-machine';

/**
 * What a ticket holder sees before the show: its poster, when it starts in their own zone and how long
 * that is from now. The player switches to the show by itself when the creator goes live.
 */
export function WaitingRoom({ event, timeZone }: { event: Event; timeZone: string }) {
  const now = useNow();
  const startsIn = Date.parse(event.date) - now;
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-4 overflow-hidden p-4 text-center">
      {event.image ? (
        <img
          src={imageUrls.event(event.image)}
          alt=""
          className="absolute inset-0 size-full scale-110 object-cover opacity-40 blur-sm"
        />
      ) : null}
      <div className="relative flex flex-col items-center gap-2 sm:gap-4">
        <p role="status" className="text-lg font-semibold text-white sm:text-2xl">
          {WAITING_MESSAGE}
        </p>
        <p className="text-sm text-slate-200 sm:text-base">
          {`Starts ${formatLongDateTime(event.date, timeZone)}`}
        </p>
        {startsIn > 0 ? (
          // Compact on a phone, where the player is a 16:9 strip a little wider than 350 px.
          <div className="origin-center scale-75 sm:scale-100">
            <Countdown to={event.date} now={now} label="Time until the show" />
          </div>
        ) : (
          <p className="text-sm text-slate-200 sm:text-base">
            The creator will start any moment now. The show plays here by itself.
          </p>
        )}
      </div>
    </div>
  );
}
