import type { SessionUser } from '@stagedoor/shared/accounts';
import { CHAT_MESSAGE_MAX_LENGTH } from '@stagedoor/shared/limits';
import type { ChatMessage } from '@stagedoor/shared/live';
import { Ban, BadgeCheck, SendHorizontal, Trash2 } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import type { LiveSocket } from '../../../lib/socket';
import { useChat } from '../hooks/use-chat';
import { formatWallTime } from '../../../lib/format';

type StreamChatProps = {
  socket: LiveSocket | null;
  isConnected: boolean;
  eventId: number;
  user: SessionUser;
  /** The event's creator deletes messages and mutes their authors. */
  isModerator: boolean;
};

/** How close to the end (px) still counts as reading the newest messages. */
const STICKY_BOTTOM_PX = 48;

export function StreamChat({ socket, isConnected, eventId, user, isModerator }: StreamChatProps) {
  const chat = useChat({ socket, isConnected, eventId, user });
  const [draft, setDraft] = useState('');
  const [isSending, setIsSending] = useState(false);
  const inputId = useId();
  const listRef = useRef<HTMLDivElement>(null);
  /** Whether the list follows new messages: not while the user scrolls back through older ones. */
  const followsNewest = useRef(true);

  useEffect(() => {
    const list = listRef.current;
    if (list && followsNewest.current) list.scrollTop = list.scrollHeight;
  }, [chat.messages]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setIsSending(true);
    followsNewest.current = true;
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
        onScroll={({ currentTarget: list }) => {
          followsNewest.current = list.scrollHeight - list.scrollTop - list.clientHeight < STICKY_BOTTOM_PX;
        }}
        className="flex-1 overflow-y-auto px-4 py-3"
      >
        {chat.messages.length ? (
          <ol className="space-y-3">
            {chat.messages.map((message) => (
              <ChatLine
                key={message.id}
                message={message}
                timeZone={user.timeZone}
                canModerate={isModerator && message.userId !== user.id}
                onDelete={() => void chat.deleteMessage(message)}
                onMute={() => void chat.muteAuthor(message)}
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

type ChatLineProps = {
  message: ChatMessage;
  /** The reader's zone: times read as on every other screen, `7:05 PM`. */
  timeZone: string;
  canModerate: boolean;
  onDelete: () => void;
  onMute: () => void;
};

function ChatLine({ message, timeZone, canModerate, onDelete, onMute }: ChatLineProps) {
  return (
    <li className="group flex gap-2.5">
      <ChatAvatar name={message.username} src={message.userAvatar} />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 text-xs">
          <span className="font-semibold text-white">{message.username}</span>
          {message.isCreator ? <CreatorBadge /> : null}
          <time dateTime={new Date(message.timestamp).toISOString()} className="text-slate-400">
            {formatWallTime(new Date(message.timestamp).toISOString(), timeZone)}
          </time>
        </p>
        <p className="text-sm break-words whitespace-pre-wrap text-slate-200">{message.content}</p>
      </div>
      {canModerate ? (
        <div className="flex shrink-0 items-start gap-1">
          <IconButton label={`Delete comment by ${message.username}`} onClick={onDelete}>
            <Trash2 aria-hidden className="size-4" />
          </IconButton>
          <IconButton label={`Mute ${message.username}`} onClick={onMute}>
            <Ban aria-hidden className="size-4" />
          </IconButton>
        </div>
      ) : null}
    </li>
  );
}

/**
 * Marks the event creator's messages. The server sets `isCreator`, and shows a fan whose name reads as
 * the creator's with their nickname: a name alone never passes for the creator's.
 */
function CreatorBadge() {
  return (
    <span className="inline-flex items-center gap-1 self-center rounded-full bg-brand-500/15 px-1.5 py-px text-[0.6875rem] leading-4 font-semibold text-brand-200 ring-1 ring-brand-400/40 ring-inset">
      <BadgeCheck aria-hidden className="size-3" />
      Creator
    </span>
  );
}

function IconButton({
  label,
  onClick,
  children,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className="rounded-md p-1 text-slate-400 hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-brand-500"
    >
      {children}
    </button>
  );
}

/** The author's picture, or their initials when there is none or it does not load. */
function ChatAvatar({ name, src }: { name: string; src: string | null }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  const frame = 'mt-0.5 size-8 shrink-0 rounded-full';
  if (!src || failedSrc === src) {
    const initials = name
      .split(/\s+/)
      .slice(0, 2)
      .map((word) => word.charAt(0))
      .join('')
      .toUpperCase();
    return (
      <span
        aria-hidden
        className={`${frame} flex items-center justify-center bg-brand-600 text-xs font-bold text-white`}
      >
        {initials}
      </span>
    );
  }
  return <img src={src} alt="" onError={() => setFailedSrc(src)} className={`${frame} object-cover`} />;
}
