import type { ShowSummary } from '@stagedoor/shared/live';
import { useId } from 'react';
import { Button, ButtonLink } from '../../../components/ui/button';
import { paths } from '../../../config/paths';

/** `1 h 02 min`, `12 min 05 s`, `40 s`: how long the show was open to fans. */
function formatShowDuration(startedAt: string, endedAt: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(endedAt) - Date.parse(startedAt)) / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const pad = (value: number) => String(value).padStart(2, '0');
  if (hours > 0) return `${hours} h ${pad(minutes)} min`;
  if (minutes > 0) return `${minutes} min ${pad(seconds % 60)} s`;
  return `${seconds} s`;
}

type ShowSummaryCardProps = { summary: ShowSummary; eventId: number; onBack: () => void };

/**
 * What the creator sees after Stop, in place of the studio: the show in figures, then the way on (its
 * whole analytics among them).
 */
export function ShowSummaryCard({ summary, eventId, onBack }: ShowSummaryCardProps) {
  const headingId = useId();
  const figures: [string, string][] = [
    ['Duration', formatShowDuration(summary.startedAt, summary.endedAt)],
    ['Peak viewers', String(summary.peakViewers)],
    // Viewers averaged over the show's time: a fraction says more than a rounded 0 or 1.
    ['Average viewers', summary.averageViewers.toFixed(1)],
    ['Chat messages', String(summary.chatMessages)],
    ['Tickets sold', String(summary.ticketsSold)],
  ];
  return (
    <section
      aria-labelledby={headingId}
      className="space-y-6 rounded-2xl bg-slate-900 p-6 ring-1 ring-white/10 sm:p-8"
    >
      <div className="space-y-1">
        <h2 id={headingId} className="text-2xl font-bold text-white">
          The show has ended
        </h2>
        <p className="text-sm text-slate-300">Thanks for the show. Here is how it went.</p>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {figures.map(([label, value]) => (
          <div key={label} className="rounded-xl bg-white/5 p-4 ring-1 ring-white/10">
            <dt className="text-sm text-slate-300">{label}</dt>
            <dd className="mt-1 text-2xl font-bold text-white tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap gap-3">
        <Button onClick={onBack}>Back to the studio</Button>
        <ButtonLink to={paths.eventAnalytics(eventId)} variant="inverse">
          See the analytics
        </ButtonLink>
        <ButtonLink to={paths.creatorMyEvents} variant="inverse">
          My Events
        </ButtonLink>
      </div>
    </section>
  );
}
