import { countdownTo } from '../lib/show-time';

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
