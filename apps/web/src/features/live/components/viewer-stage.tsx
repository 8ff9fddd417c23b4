import type { SessionUser } from '@stagedoor/shared/accounts';
import type { Event } from '@stagedoor/shared/events';
import type { LiveConfig } from '@stagedoor/shared/live';
import type { UseQueryResult } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import type { LiveConnection, LiveSocket } from '../../../lib/socket';
import { useNow } from '../../../lib/use-now';
import { useReplay, useReplayChat } from '../api/replay';
import { useViewerStream } from '../hooks/use-viewer-stream';
import type { ViewerState } from '../lib/viewer-machine';
import { ReplayChat } from './replay-chat';
import { ReplayPlayer } from './replay-player';
import { SettingsGate } from './settings-gate';
import { StreamChat } from './stream-chat';
import { ViewerPanel, type ReplayNotice } from './viewer-panel';

type ViewerStageProps = {
  socket: LiveSocket | null;
  connection: LiveConnection;
  event: Event;
  user: SessionUser;
  config: UseQueryResult<LiveConfig>;
};

/** Whether an event whose show is not on has started yet is a matter of seconds: 10 s is precise enough. */
const START_CHECK_MS = 10_000;

/**
 * Whether the show is over, for all the viewer can tell: the creator stopped it, or nothing is live
 * though its time has come (or a replay of it is ready: the creator may have held it early).
 */
function isShowOver({ phase }: ViewerState, event: Event, now: number): boolean {
  if (phase === 'ended') return true;
  return phase === 'waiting' && (event.hasReplay || Date.parse(event.date) <= now);
}

/**
 * The fan's side of the stream page: the player and the live chat while the show is on, and its replay
 * with the chat in time once it is over and the replay ready (DESIGN.md "Replays"). The viewer's stream
 * keeps running under a replay: should the creator go live again, the show takes its place.
 */
export function ViewerStage({ socket, connection, event, user, config }: ViewerStageProps) {
  const isConnected = connection.status === 'connected';
  const viewer = useViewerStream({
    socket,
    isConnected,
    eventId: event.id,
    userId: user.id,
    iceServers: config.isSuccess ? config.data.iceServers : null,
  });
  const now = useNow(START_CHECK_MS);
  const isOver = isShowOver(viewer.state, event, now);
  const replay = useReplay(event.id, isOver);
  const ready = replay.data?.status === 'ready' && replay.data.url ? replay.data : null;

  // Once it plays, the replay stays through a dropped socket (the viewer's state starts over while it
  // reconnects); only the live show, back on, or a replay no longer ready, take its place.
  const [isReplaying, setIsReplaying] = useState(false);
  if (!isReplaying && isOver && ready) setIsReplaying(true);
  if (isReplaying && (!ready || viewer.state.phase === 'playing')) setIsReplaying(false);
  const chat = useReplayChat(event.id, isReplaying);
  const [seconds, setSeconds] = useState(0);

  if (isReplaying && ready?.url) {
    const refresh = async () => {
      const fresh = await replay.refetch();
      return fresh.data?.status === 'ready' ? (fresh.data.url ?? null) : null;
    };
    return (
      <>
        <ReplayPlayer url={ready.url} durationS={ready.durationS} onTime={setSeconds} refresh={refresh} />
        <ReplayChat
          messages={chat.data?.messages}
          isError={chat.isError}
          onRetry={() => void chat.refetch()}
          seconds={seconds}
        />
      </>
    );
  }

  const notice: ReplayNotice | null = !isOver
    ? null
    : replay.isError
      ? { status: 'unavailable', reason: errorMessage(replay.error, 'The replay could not be loaded.') }
      : replay.data && replay.data.status !== 'ready'
        ? { status: replay.data.status }
        : null;
  return (
    <>
      <div>
        <SettingsGate config={config}>
          {() => (
            <ViewerPanel
              viewer={viewer}
              connection={connection}
              event={event}
              timeZone={user.timeZone}
              replay={notice}
            />
          )}
        </SettingsGate>
      </div>
      <StreamChat
        socket={socket}
        eventId={event.id}
        isConnected={isConnected}
        user={user}
        isModerator={false}
      />
    </>
  );
}
