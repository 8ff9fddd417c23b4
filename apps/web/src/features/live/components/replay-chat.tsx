import type { ReplayChatMessage } from '@stagedoor/shared/replays';
import { useFollowNewest } from '../hooks/use-follow-newest';
import { Button } from '../../../components/ui/button';
import { formatReplayClock, replayClockDateTime, saidBy } from '../lib/replay-time';
import { ChatLine } from './chat-line';

type ReplayChatProps = {
  /** The show's chat (GET /events/{id}/chat); undefined while it loads or when it could not. */
  messages: ReplayChatMessage[] | undefined;
  isError: boolean;
  onRetry: () => void;
  /** Where the replay is: the chat shows what had been said by then. */
  seconds: number;
};

/**
 * The chat beside a replay, as it was at the moment the video shows: each message appears when the
 * replay reaches the moment it was written, and goes again when the viewer seeks back before it.
 * Read-only: nobody writes into a replay.
 */
export function ReplayChat({ messages, isError, onRetry, seconds }: ReplayChatProps) {
  const shown = messages ? saidBy(messages, seconds) : [];
  const { listRef, onScroll } = useFollowNewest(shown.length);

  return (
    <aside
      aria-label="Chat"
      className="flex h-[28rem] flex-col rounded-2xl bg-slate-900 ring-1 ring-white/10 lg:h-full lg:min-h-[32rem]"
    >
      <h2 className="border-b border-white/10 px-4 py-3 font-semibold text-white">Chat replay</h2>
      <div
        ref={listRef}
        role="log"
        aria-label="Conversation"
        onScroll={onScroll}
        className="flex-1 overflow-y-auto px-4 py-3"
      >
        {shown.length ? (
          <ol className="space-y-3">
            {shown.map((message) => (
              <ChatLine
                key={message.id}
                message={message}
                time={{
                  dateTime: replayClockDateTime(message.offsetS),
                  text: formatReplayClock(message.offsetS),
                }}
              />
            ))}
          </ol>
        ) : (
          <EmptyChat messages={messages} isError={isError} onRetry={onRetry} />
        )}
      </div>
      <p className="border-t border-white/10 px-4 py-3 text-xs text-slate-400">
        The chat as it was during the show. It is closed now.
      </p>
    </aside>
  );
}

function EmptyChat({ messages, isError, onRetry }: Omit<ReplayChatProps, 'seconds'>) {
  if (isError) {
    return (
      <div className="flex flex-col items-center gap-3 py-8 text-center">
        <p className="text-sm text-slate-300">The chat of the show could not be loaded.</p>
        <Button variant="inverse" size="sm" onClick={onRetry}>
          Try again
        </Button>
      </div>
    );
  }
  const text = !messages
    ? 'Loading the chat...'
    : messages.length
      ? 'The messages of the show appear here as the replay reaches them.'
      : 'Nobody wrote in the chat during this show.';
  return <p className="py-8 text-center text-sm text-slate-400">{text}</p>;
}
