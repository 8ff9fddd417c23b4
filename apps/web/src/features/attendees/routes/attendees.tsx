import { ATTENDEE_SEARCH_MAX_LENGTH } from '@stagedoor/shared/attendees';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/field';
import { LoadError } from '../../../components/ui/load-error';
import { LoadMore } from '../../../components/ui/load-more';
import { PageSpinner } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { formatLongDateTime } from '../../../lib/format';
import { eventQuery } from '../../../lib/reads';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useSettled } from '../../../lib/use-settled';
import { useTimeZone } from '../../../lib/use-time-zone';
import { useAttendees, useDownloadAttendees } from '../api/attendees';
import { AttendeeList } from '../components/attendee-list';
import { MessageAttendees } from '../components/message-attendees';

/** How long typing must pause before the list is searched again. */
const SEARCH_DEBOUNCE_MS = 300;

/**
 * The creator's attendees of one event (/creators/dashboard/events/{id}/attendees): who holds or held its
 * tickets, searched as the creator types, downloaded as CSV, and written to by mail.
 */
export function AttendeesRoute() {
  useDocumentTitle('Attendees');
  const { id = '' } = useParams();
  const timeZone = useTimeZone();
  const event = useQuery(eventQuery(id));
  const [draft, setDraft] = useState('');
  const search = useSettled(draft.trim(), SEARCH_DEBOUNCE_MS);
  const attendees = useAttendees(id, search);
  const download = useDownloadAttendees({ id: Number(id), name: event.data?.name ?? '' });

  return (
    <Page
      title="Attendees"
      description={
        event.data ? `${event.data.name} · ${formatLongDateTime(event.data.date, timeZone)}` : undefined
      }
      actions={
        <div className="flex flex-wrap gap-3">
          <Button
            variant="secondary"
            onClick={() => download.mutate()}
            disabled={!event.data || download.isPending}
          >
            {download.isPending ? 'Downloading...' : 'Download CSV'}
          </Button>
          {event.data ? <MessageAttendees eventId={id} eventName={event.data.name} /> : null}
        </div>
      }
    >
      <div className="space-y-6">
        <form role="search" aria-label="Search attendees" onSubmit={(submit) => submit.preventDefault()}>
          <Input
            label="Search"
            type="search"
            placeholder="Name or email"
            maxLength={ATTENDEE_SEARCH_MAX_LENGTH}
            value={draft}
            onChange={({ target }) => setDraft(target.value)}
            className="sm:max-w-sm"
          />
        </form>
        {attendees.isPending ? (
          <PageSpinner label="Loading attendees" />
        ) : !attendees.data ? (
          <LoadError
            message={errorMessage(attendees.error, 'Error fetching attendees')}
            onRetry={() => void attendees.refetch()}
            isRetrying={attendees.isFetching}
          />
        ) : attendees.data.length === 0 ? (
          <Card className="space-y-4 p-10 text-center text-slate-600">
            {search ? (
              <p>Nobody matches &ldquo;{search}&rdquo;.</p>
            ) : (
              <>
                <p>No tickets sold yet. Everyone who gets one appears here.</p>
                <TextLink to={paths.eventDetails(id)}>View the event page</TextLink>
              </>
            )}
          </Card>
        ) : (
          <>
            <AttendeeList attendees={attendees.data} />
            <LoadMore pages={attendees} noun="attendees" />
          </>
        )}
      </div>
    </Page>
  );
}
