const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

type Countdown = { days: number; hours: number; minutes: number; seconds: number };

/** What is left until `date`, in whole units (all zero once it has come). */
function countdownTo(date: string, now: number): Countdown {
  const left = Math.max(0, Date.parse(date) - now);
  return {
    days: Math.floor(left / DAY_MS),
    hours: Math.floor((left % DAY_MS) / HOUR_MS),
    minutes: Math.floor((left % HOUR_MS) / MINUTE_MS),
    seconds: Math.floor((left % MINUTE_MS) / SECOND_MS),
  };
}

const units = [
  ['days', 'day'],
  ['hours', 'hour'],
  ['minutes', 'minute'],
  ['seconds', 'second'],
] as const;

/**
 * The time left until the show, ticking each second. Its text reads as words ("2 days 3 hours 4 minutes
 * 5 seconds"); as a `timer` it is not announced on every tick, only when a reader goes to it.
 */
export function Countdown({ to, now, label }: { to: string; now: number; label: string }) {
  const left = countdownTo(to, now);
  return (
    <div role="timer" aria-label={label} className="flex gap-2">
      {units.map(([unit, singular]) => {
        const value = left[unit];
        return (
          <span
            key={unit}
            className="flex min-w-16 flex-col items-center rounded-xl bg-white px-2 py-2 ring-1 ring-brand-200"
          >
            <span className="text-2xl font-bold text-slate-900 tabular-nums">{value}</span>{' '}
            <span className="text-xs font-medium text-slate-500">{value === 1 ? singular : unit}</span>{' '}
          </span>
        );
      })}
    </div>
  );
}
