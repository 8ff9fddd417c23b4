import type { SessionUser } from '@stagedoor/shared/accounts';
import { CHAT_MESSAGE_MAX_LENGTH } from '@stagedoor/shared/limits';
import { SendHorizontal } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useFollowNewest } from '../hooks/use-follow-newest';
import { Button } from '../../../components/ui/button';
import type { LiveSocket } from '../../../lib/socket';
import { useChat } from '../hooks/use-chat';
import { formatWallTime } from '../../../lib/format';
import { ChatLine } from './chat-line';

type StreamChatProps = {
  socket: LiveSocket | null;
  isConnected: boolean;
  eventId: number;
  user: SessionUser;
  /** The event's creator deletes messages and mutes their authors. */
  isModerator: boolean;
};

export function StreamChat({ socket, isConnected, eventId, user, isModerator }: StreamChatProps) {
  const chat = useChat({ socket, isConnected, eventId, user });
  const [draft, setDraft] = useState('');
  const [isSending, setIsSending] = useState(false);
  const inputId = useId();
  const { listRef, onScroll, follow } = useFollowNewest(chat.messages);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsSending(true);
    follow();
    if (await chat.send(draft)) setDraft('');
    setIsSending(false);
  };

  return (
    <aside
      aria-label="Chat"
      className="flex h-[28rem] flex-col rounded-2xl bg-slate-900 ring-1 ring-white/10 lg:h-full lg:min-h-[32rem]"
    >
      <h2 className="border-b border-white/10 px-4 py-3 font-semibold text-white">Live chat</h2>
      {chat.isRefused ? (
        <p role="alert" className="border-b border-white/10 bg-red-950/60 px-4 py-2 text-sm text-red-200">
          The chat is not open to this account.
        </p>
      ) : null}
      <div
        ref={listRef}
        role="log"
        aria-label="Conversation"
        onScroll={onScroll}
        className="flex-1 overflow-y-auto px-4 py-3"
      >
        {chat.messages.length ? (
          <ol className="space-y-3">
            {chat.messages.map((message) => (
              <ChatLine
                key={message.id}
                message={message}
                time={wallTimeOf(message.timestamp, user.timeZone)}
                moderation={
                  isModerator && message.userId !== user.id
                    ? {
                        onDelete: () => void chat.deleteMessage(message),
                        onMute: () => void chat.muteAuthor(message),
                      }
                    : null
                }
              />
            ))}
          </ol>
        ) : (
          <p className="py-8 text-center text-sm text-slate-400">No messages yet. Be the first to write!</p>
        )}
      </div>
      <form onSubmit={(event) => void submit(event)} className="flex gap-2 border-t border-white/10 p-3">
        <label htmlFor={inputId} className="sr-only">
          Message
        </label>
        <input
          id={inputId}
          name="message"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          maxLength={CHAT_MESSAGE_MAX_LENGTH}
          placeholder="Write a message..."
          autoComplete="off"
          className="min-w-0 flex-1 rounded-lg border-0 bg-slate-800 px-3 py-2 text-sm text-white ring-1 ring-white/10 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-brand-500 focus:outline-none"
        />
        <Button type="submit" size="sm" disabled={!chat.canSend || !draft.trim() || isSending}>
          <SendHorizontal aria-hidden className="size-4" />
          Send
        </Button>
      </form>
    </aside>
  );
}

/** When a message was written, in the reader's zone and the site's 12-hour clock (`7:05 PM`). */
function wallTimeOf(timestamp: number, timeZone: string) {
  const iso = new Date(timestamp).toISOString();
  return { dateTime: iso, text: formatWallTime(iso, timeZone) };
}
