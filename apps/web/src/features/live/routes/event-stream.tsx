import type { Event } from '@stagedoor/shared/events';
import { useParams } from 'react-router';
import { Page } from '../../../components/layout/page';
import { ButtonLink } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useCurrentUser } from '../../../lib/session';
import { useLiveSocket, type LiveSocketState } from '../../../lib/socket';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLiveConfig, useStreamEvent } from '../api/stream';
import { BroadcasterPanel } from '../components/broadcaster-panel';
import { SettingsGate } from '../components/settings-gate';
import { StreamChat } from '../components/stream-chat';
import { StreamHeader } from '../components/stream-header';
import { ViewerStage } from '../components/viewer-stage';

/** /events/{id}/stream and /creators/dashboard/events/{id}/stream (spec §2 "Event stream page"). */
export function EventStreamRoute() {
  const { id = '' } = useParams();
  // Another event is another page: a fresh socket, stream and chat.
  return <EventStream key={id} id={id} />;
}

/**
 * Everything the page needs starts at once (the socket, the event and the stream settings), not one
 * after another: a fan who opens the page while the show is on sees the picture as soon as the
 * slowest of them answers, not after the sum of them.
 */
function EventStream({ id }: { id: string }) {
  const event = useStreamEvent(id);
  // Opened while the event loads, closed if it cannot be.
  const live = useLiveSocket({ enabled: !event.isError });
  const config = useLiveConfig(Number(id));
  useDocumentTitle(event.data && `Live · ${event.data.name}`);

  if (event.isPending) {
    return (
      <p role="status" className="px-4 py-24 text-center text-slate-600">
        Loading event...
      </p>
    );
  }
  if (event.isError) {
    return (
      <Page title="Event unavailable" description="This event could not be loaded." width="narrow">
        <ButtonLink to={paths.events}>Browse events</ButtonLink>
      </Page>
    );
  }
  return <LiveEvent event={event.data} live={live} config={config} />;
}

function LiveEvent({
  event,
  live: { socket, connection },
  config,
}: {
  event: Event;
  live: LiveSocketState;
  config: ReturnType<typeof useLiveConfig>;
}) {
  const user = useCurrentUser();
  const isConnected = connection.status === 'connected';
  // Only the event's own creator broadcasts (spec §6); anyone else, creators included, watches.
  const isBroadcaster = user.id === event.creatorId;
  const live = { socket, eventId: event.id, userId: user.id };

  return (
    <div className="flex flex-1 flex-col bg-slate-950 text-white">
      <StreamHeader event={event} />
      <div className="mx-auto grid w-full max-w-7xl flex-1 gap-6 px-4 py-6 sm:px-6 lg:grid-cols-[1fr_22rem] lg:px-8">
        {isBroadcaster ? (
          <>
            <div>
              <SettingsGate config={config}>
                {(settings) => <BroadcasterPanel {...live} {...settings} connection={connection} />}
              </SettingsGate>
            </div>
            <StreamChat {...live} isConnected={isConnected} user={user} isModerator />
          </>
        ) : (
          <ViewerStage socket={socket} connection={connection} event={event} user={user} config={config} />
        )}
      </div>
    </div>
  );
}
