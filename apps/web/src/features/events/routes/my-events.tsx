import type { Event } from '@stagedoor/shared/events';
import { useState } from 'react';
import { Page } from '../../../components/layout/page';
import { ButtonLink } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { LoadMore } from '../../../components/ui/load-more';
import { PageSpinner } from '../../../components/ui/spinner';
import { TextLink } from '../../../components/ui/text-link';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useCurrentUser } from '../../../lib/session';
import { useDocumentTitle } from '../../../lib/use-document-title';
import {
  useCancelEvent,
  useCreatorEvents,
  useDeleteEvent,
  useDeleteReplay,
  useEventEarnings,
} from '../api/events';
import { ConfirmCancelDialog } from '../components/cancel-event-dialog';
import {
  ConfirmDeleteDialog,
  ConfirmDeleteReplayDialog,
  ErrorDialog,
} from '../components/delete-event-dialogs';
import { MyEventCard } from '../components/my-event-card';
import { cancellationPenalty, isLateCancellation } from '../lib/cancellation';

export function MyEventsRoute() {
  useDocumentTitle('My Events');
  const user = useCurrentUser();
  const events = useCreatorEvents(user.id);
  const deleteEvent = useDeleteEvent();
  const cancelEvent = useCancelEvent();
  const [toDelete, setToDelete] = useState<Event | null>(null);
  const [toCancel, setToCancel] = useState<Event | null>(null);
  const deleteReplay = useDeleteReplay();
  const [replayToDelete, setReplayToDelete] = useState<Event | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  // The failure (by its time) the user closed the modal on: a later failed reload opens it again.
  const [dismissedErrorAt, setDismissedErrorAt] = useState(0);
  const isLate = toCancel !== null && isLateCancellation(toCancel);
  // Only a late cancellation costs something; its amount comes from what the event sold.
  const sales = useEventEarnings(toCancel?.id, isLate);

  // A failed load opens the same Error modal as a failed delete (spec §4, "a store-level events error").
  const loadError =
    events.isError && events.errorUpdatedAt !== dismissedErrorAt
      ? errorMessage(events.error, 'Error fetching creator events')
      : null;

  const confirmDelete = async (event: Event) => {
    try {
      await deleteEvent.mutateAsync(event.id);
    } catch (error) {
      setActionError(errorMessage(error, 'Error deleting event'));
    } finally {
      setToDelete(null);
    }
  };

  const confirmDeleteReplay = async (event: Event) => {
    try {
      await deleteReplay.mutateAsync(event.id);
      notify('Replay deleted.', 'success');
    } catch (error) {
      setActionError(errorMessage(error, 'Error deleting replay'));
    } finally {
      setReplayToDelete(null);
    }
  };

  const confirmCancel = async (event: Event) => {
    try {
      const { refundedOrders } = await cancelEvent.mutateAsync(event.id);
      notify(`Event cancelled. ${refundedOrders} order(s) refunded.`, 'success');
    } catch (error) {
      setActionError(errorMessage(error, 'Error cancelling event'));
    } finally {
      setToCancel(null);
    }
  };

  return (
    <Page
      title="My Events"
      description="Manage, edit and stream the events you have created."
      actions={<ButtonLink to={paths.createEvent}>Create New Event</ButtonLink>}
    >
      {events.isPending ? (
        <PageSpinner label="Loading your events" />
      ) : !events.data ? (
        <LoadError
          message={errorMessage(events.error, 'Error fetching creator events')}
          onRetry={() => void events.refetch()}
          isRetrying={events.isFetching}
        />
      ) : !events.data.length ? (
        <Card className="space-y-4 p-10 text-center text-slate-600">
          <p>You haven&apos;t created any events yet.</p>
          <TextLink to={paths.createEvent}>Create your first event</TextLink>
        </Card>
      ) : (
        <>
          <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {events.data.map((event) => (
              <li key={event.id}>
                <MyEventCard
                  event={event}
                  onDelete={setToDelete}
                  onCancel={setToCancel}
                  onDeleteReplay={setReplayToDelete}
                />
              </li>
            ))}
          </ul>
          <LoadMore pages={events} noun="events" />
        </>
      )}
      <ConfirmDeleteDialog
        event={toDelete}
        isDeleting={deleteEvent.isPending}
        onCancel={() => setToDelete(null)}
        onConfirm={confirmDelete}
      />
      <ConfirmDeleteReplayDialog
        event={replayToDelete}
        isDeleting={deleteReplay.isPending}
        onCancel={() => setReplayToDelete(null)}
        onConfirm={confirmDeleteReplay}
      />
      <ConfirmCancelDialog
        event={toCancel}
        isLate={isLate}
        penalty={sales.data && cancellationPenalty(sales.data.gross)}
        isCancelling={cancelEvent.isPending}
        onKeep={() => setToCancel(null)}
        onConfirm={confirmCancel}
      />
      <ErrorDialog
        message={actionError ?? loadError}
        onClose={() => (actionError ? setActionError(null) : setDismissedErrorAt(events.errorUpdatedAt))}
      />
    </Page>
  );
}
