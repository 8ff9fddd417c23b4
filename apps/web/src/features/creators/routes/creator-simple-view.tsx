import type { Event } from '@stagedoor/shared/events';
import { useParams } from 'react-router';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { MediaCard } from '../../../components/ui/media-card';
import { PageSpinner } from '../../../components/ui/spinner';
import { formatMoney, formatShortDateTime } from '../../../lib/format';
import { useTimeZone } from '../../../lib/use-time-zone';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSimpleCreatorView } from '../api/creators';
import { CreatorBanner } from '../components/creator-banner';

/** The plain creator page at /creators/dashboard/creator/{id} (spec §2), open to anyone. */
export function CreatorSimpleViewRoute() {
  const { id = '' } = useParams();
  const { isPending, isError, isRetrying, retry, user, events } = useSimpleCreatorView(id);
  useDocumentTitle(user && `${user.firstName} ${user.lastName}`);

  if (isPending) return <PageSpinner label="Loading creator profile" />;
  if (isError || !user) {
    return (
      <div className="mx-auto w-full max-w-3xl px-4 py-16">
        <LoadError message="Failed to load creator profile" onRetry={retry} isRetrying={isRetrying} />
      </div>
    );
  }
  return (
    <div>
      <CreatorBanner file={user.headerImageUrl} />
      <div className="mx-auto w-full max-w-6xl px-4 py-10 sm:px-6 lg:px-8">
        {/* The API puts the creator's name in `email` for everyone but the creator (DESIGN.md, privacy). */}
        <h1 className="text-3xl font-bold tracking-tight text-slate-900">{user.email}</h1>
        <p className="mt-4 max-w-3xl whitespace-pre-line text-slate-700">
          {user.biography || 'No biography available'}
        </p>
        <h2 className="mt-12 mb-6 text-2xl font-semibold text-slate-900">Events</h2>
        {events.length ? (
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {events.map((event) => (
              <li key={event.id}>
                <SimpleEventCard event={event} />
              </li>
            ))}
          </ul>
        ) : (
          <Card className="p-10 text-center text-slate-600">No events found for this creator.</Card>
        )}
      </div>
    </div>
  );
}

function SimpleEventCard({ event }: { event: Event }) {
  const timeZone = useTimeZone();
  const facts = [
    ['Price', formatMoney(event.price)],
    ['Max Tickets', String(event.maxTickets)],
    ['Date', formatShortDateTime(event.eventDate, timeZone)],
  ] as const;
  return (
    <MediaCard title={event.name} headingLevel={3}>
      <p className="line-clamp-3 text-sm text-slate-600">{event.description}</p>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {facts.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-slate-500">{label}</dt>
            <dd className="text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
    </MediaCard>
  );
}
