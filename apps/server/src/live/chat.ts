import { imageUrls } from '@stagedoor/shared/images';
import { CHAT_HISTORY_LIMIT } from '@stagedoor/shared/limits';
import {
  ZChatMessageRequest,
  ZDeleteChatMessageRequest,
  ZEventRequest,
  ZMuteUserRequest,
  type ChatMessage,
} from '@stagedoor/shared/live';
import type { ReplayChatMessage } from '@stagedoor/shared/replays';
import type { EventRow } from '../modules/events/events.tables';
import { findAccount } from '../modules/accounts/accounts.service';
import { chatMessagesSent } from '../plugins/metrics';
import { USER_NOT_FOUND_MESSAGE } from '../modules/accounts/users.service';
import { isCreatorOf, NEED_A_TICKET_MESSAGE } from '../policy';
import { ownedEvent, seatsIn, watchableEvent } from './access';
import {
  insertChatMessage,
  isMuted,
  muteAccount,
  chatMessagesBetween,
  countChatMessages,
  recentChatMessages,
  softDeleteChatMessage,
  type ChatMessageWithAuthor,
} from './chat.repo';
import { chatRoom, type Live, type LiveAccount, type LiveSocket } from './context';
import { lookalikeKey, looksAlike, type NameKey } from './display-names';
import { LiveError, type SocketHandlers } from './handlers';

const JOIN_CHAT_FIRST_MESSAGE = 'Join the chat before sending messages';
const TOO_FAST_MESSAGE = 'You are sending messages too fast';
const MUTED_MESSAGE = 'You have been muted in this chat';
const ONLY_CREATOR_DELETES_MESSAGE = 'Only the event creator can delete chat messages';
const ONLY_CREATOR_MUTES_MESSAGE = 'Only the event creator can mute users';
const MESSAGE_NOT_FOUND_MESSAGE = 'Message not found';
const CANNOT_MUTE_YOURSELF_MESSAGE = 'You cannot mute yourself';

/** Whose chat it is: its creator, and the form of their name nobody else may show (display-names.ts). */
interface ChatHost {
  creatorId: number;
  creatorNameKey: NameKey | null;
}

/**
 * An event's chat: its creator and ticket holders read the recent history and talk; the creator
 * deletes messages and mutes accounts. Who wrote a message and when always comes from the server, and
 * the creator's messages are marked as theirs.
 */
export function registerChatHandlers(live: Live, socket: LiveSocket, handlers: SocketHandlers): void {
  const { db } = live.deps;
  const { account } = socket.data;
  /** The chats this socket joined: joinChat checked the access, on this instance. */
  const joinedChats = new Map<number, ChatHost>();

  socket.on(
    'joinChat',
    handlers.acked(ZEventRequest, async ({ eventId }) => {
      const { event } = await watchableEvent(live.deps, account, eventId);
      const host = await chatHostOf(live.deps, account, event);
      await socket.join(chatRoom(eventId));
      joinedChats.set(eventId, host);
      const history = await recentChatMessages(db, eventId, CHAT_HISTORY_LIMIT);
      return { messages: history.map((message) => toChatMessage(message, host)) };
    }),
  );

  socket.on(
    'chatMessage',
    // The payload's userId, username, timestamp and userAvatar are ignored: the schema reads them,
    // nothing below uses them.
    handlers.acked(ZChatMessageRequest, async ({ eventId, content }) => {
      const host = joinedChats.get(eventId);
      if (!host) throw new LiveError('FORBIDDEN', JOIN_CHAT_FIRST_MESSAGE);
      if ((await live.chatLimiter.take(String(account.id))) !== null)
        throw new LiveError('RATE_LIMITED', TOO_FAST_MESSAGE);
      // The ticket that let it join may have been refunded since (a cancelled event): no more talking.
      if ((await seatsIn(live.deps, account, { id: eventId, creatorId: host.creatorId })) === 0) {
        joinedChats.delete(eventId);
        await socket.leave(chatRoom(eventId));
        throw new LiveError('TICKET_REQUIRED', NEED_A_TICKET_MESSAGE);
      }
      if (await isMuted(db, eventId, account.id)) throw new LiveError('FORBIDDEN', MUTED_MESSAGE);
      const stored = await insertChatMessage(db, { eventId, accountId: account.id, content });
      chatMessagesSent.inc();
      const message = toChatMessage({ message: stored, author: account }, host);
      live.io.to(chatRoom(eventId)).emit('chatMessage', message);
      return { message };
    }),
  );

  socket.on(
    'deleteChatMessage',
    handlers.acked(ZDeleteChatMessageRequest, async ({ eventId, messageId }) => {
      await ownedEvent(live.deps, account, eventId, ONLY_CREATOR_DELETES_MESSAGE);
      if (!(await softDeleteChatMessage(db, eventId, messageId)))
        throw new LiveError('NOT_FOUND', MESSAGE_NOT_FOUND_MESSAGE);
      live.io.to(chatRoom(eventId)).emit('chatMessageDeleted', { eventId, messageId });
      return {};
    }),
  );

  socket.on(
    'muteUser',
    handlers.acked(ZMuteUserRequest, async ({ eventId, userId }) => {
      await ownedEvent(live.deps, account, eventId, ONLY_CREATOR_MUTES_MESSAGE);
      if (userId === account.id) throw new LiveError('CONFLICT', CANNOT_MUTE_YOURSELF_MESSAGE);
      if (!(await findAccount(live.deps, userId))) throw new LiveError('NOT_FOUND', USER_NOT_FOUND_MESSAGE);
      await muteAccount(db, eventId, userId);
      return {};
    }),
  );
}

async function chatHostOf(deps: Live['deps'], account: LiveAccount, event: EventRow): Promise<ChatHost> {
  const creator = isCreatorOf(account, event) ? account : await findAccount(deps, event.creatorId);
  return {
    creatorId: event.creatorId,
    creatorNameKey: creator ? lookalikeKey(displayName(creator)) : null,
  };
}

const displayName = (account: Pick<LiveAccount, 'firstName' | 'lastName'>) =>
  `${account.firstName} ${account.lastName}`;

/**
 * The message as every client shows it. A fan whose name reads as the creator's (the same once
 * normalised, whatever the case, width, accents, script or invisible characters) is shown with their
 * unique nickname, so nobody can pass for the creator in their own chat.
 */
function toChatMessage({ message, author }: ChatMessageWithAuthor, host: ChatHost): ChatMessage {
  const isCreator = author.id === host.creatorId;
  const name = displayName(author);
  const passesForCreator =
    !isCreator && host.creatorNameKey !== null && looksAlike(lookalikeKey(name), host.creatorNameKey);
  return {
    id: message.id,
    eventId: message.eventId,
    userId: author.id,
    username: passesForCreator ? `${name} (@${author.nickname})` : name,
    content: message.content,
    timestamp: message.createdAt.getTime(),
    userAvatar: author.profileImage ? imageUrls.profile(author.role, author.profileImage) : null,
    isCreator,
  };
}

/** The most messages GET /events/{id}/chat answers: a long, busy show's whole chat. */
const SHOW_CHAT_LIMIT = 10_000;

/**
 * GET /events/{id}/chat: the messages written while the show was on (from `from` to `to`), as the live
 * chat showed them, each with its moment in the replay (`offsetOf`).
 */
export async function showChat(
  deps: Live['deps'],
  account: LiveAccount,
  event: EventRow,
  span: { from: Date; to: Date },
  offsetOf: (at: Date) => number,
): Promise<ReplayChatMessage[]> {
  const host = await chatHostOf(deps, account, event);
  const messages = await chatMessagesBetween(deps.db, event.id, span.from, span.to, SHOW_CHAT_LIMIT);
  return messages.map((message) => ({
    ...toChatMessage(message, host),
    offsetS: offsetOf(message.message.createdAt),
  }));
}

/** Every message written in the event's chat, deleted ones too (they were written): its analytics. */
export function chatMessagesWritten(deps: Pick<Live['deps'], 'db'>, eventId: number): Promise<number> {
  return countChatMessages(deps.db, eventId);
}
