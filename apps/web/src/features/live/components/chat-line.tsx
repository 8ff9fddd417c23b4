import type { ChatMessage } from '@stagedoor/shared/live';
import { Ban, BadgeCheck, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';

type ChatLineProps = {
  message: ChatMessage;
  /**
   * When it was said, as the reader reads it: the wall time in the live chat (`7:05 PM`), the moment
   * in the video in a replay's (`4:05`). `dateTime` is its machine form.
   */
  time: { dateTime: string; text: string };
  /** The event's creator deletes the message and mutes its author (the live chat only). */
  moderation?: { onDelete: () => void; onMute: () => void } | null;
};

/** One message of a show's chat, live or in its replay. */
export function ChatLine({ message, time, moderation }: ChatLineProps) {
  return (
    <li className="group flex gap-2.5">
      <ChatAvatar name={message.username} src={message.userAvatar} />
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5 text-xs">
          <span className="font-semibold text-white">{message.username}</span>
          {message.isCreator ? <CreatorBadge /> : null}
          <time dateTime={time.dateTime} className="text-slate-400">
            {time.text}
          </time>
        </p>
        <p className="text-sm break-words whitespace-pre-wrap text-slate-200">{message.content}</p>
      </div>
      {moderation ? (
        <div className="flex shrink-0 items-start gap-1">
          <IconButton label={`Delete comment by ${message.username}`} onClick={moderation.onDelete}>
            <Trash2 aria-hidden className="size-4" />
          </IconButton>
          <IconButton label={`Mute ${message.username}`} onClick={moderation.onMute}>
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
