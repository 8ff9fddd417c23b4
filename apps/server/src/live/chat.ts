import type { Role } from '@stagedoor/shared/auth';
import { CHAT_HISTORY_LIMIT } from '@stagedoor/shared/limits';
import {
  ZChatMessageRequest,
  ZDeleteChatMessageRequest,
  ZEventRequest,
  ZMuteUserRequest,
  type ChatMessage,
} from '@stagedoor/shared/realtime';
import { findAccountById } from '../modules/auth/accounts.repo';
import { chatMessagesSent } from '../plugins/metrics';
import { USER_NOT_FOUND_MESSAGE } from '../modules/users/users.service';
import { ownedEvent, watchableEvent } from './access';
import {
  insertChatMessage,
  isMuted,
  muteAccount,
  recentChatMessages,
  softDeleteChatMessage,
  type ChatMessageWithAuthor,
} from './chat.repo';
import { chatRoom, type Live, type LiveSocket } from './context';
import { LiveError, type SocketHandlers } from './handlers';

/** Per account, over all its sockets on one instance: enough to talk, too little to flood. */
export const CHAT_RATE_LIMIT = { max: 5, windowMs: 5_000 };

export const JOIN_CHAT_FIRST_MESSAGE = 'Join the chat before sending messages';
export const TOO_FAST_MESSAGE = 'You are sending messages too fast';
export const MUTED_MESSAGE = 'You have been muted in this chat';
export const ONLY_CREATOR_DELETES_MESSAGE = 'Only the event creator can delete chat messages';
export const ONLY_CREATOR_MUTES_MESSAGE = 'Only the event creator can mute users';
export const MESSAGE_NOT_FOUND_MESSAGE = 'Message not found';
export const CANNOT_MUTE_YOURSELF_MESSAGE = 'You cannot mute yourself';

/** The images the API serves for each role's profile picture (images.routes.ts). */
const PROFILE_IMAGE_PATHS: Record<Role, string> = {
  creator: '/api/creators/profile-image/',
  user: '/api/users/profile-image/',
};

/**
 * An event's chat: its creator and ticket holders read the recent history and talk; the creator
 * deletes messages and mutes accounts. Who wrote a message and when always comes from the server.
 */
export function registerChatHandlers(live: Live, socket: LiveSocket, handlers: SocketHandlers): void {
  const { db } = live.deps;
  const { account } = socket.data;

  socket.on(
    'joinChat',
    handlers.acked(ZEventRequest, async ({ eventId }) => {
      await watchableEvent(db, account, eventId);
      await socket.join(chatRoom(eventId));
      return { messages: (await recentChatMessages(db, eventId, CHAT_HISTORY_LIMIT)).map(toChatMessage) };
    }),
  );

  socket.on(
    'chatMessage',
    // The payload's userId, username, timestamp and userAvatar are ignored: the schema reads them,
    // nothing below uses them.
    handlers.acked(ZChatMessageRequest, async ({ eventId, content }) => {
      // joinChat checked the access; the room is this instance's record that it did.
      if (!socket.rooms.has(chatRoom(eventId))) throw new LiveError('FORBIDDEN', JOIN_CHAT_FIRST_MESSAGE);
      if (!live.chatLimiter.allow(account.id)) throw new LiveError('RATE_LIMITED', TOO_FAST_MESSAGE);
      if (await isMuted(db, eventId, account.id)) throw new LiveError('FORBIDDEN', MUTED_MESSAGE);
      const stored = await insertChatMessage(db, { eventId, accountId: account.id, content });
      chatMessagesSent.inc();
      const message = toChatMessage({ message: stored, author: account });
      live.io.to(chatRoom(eventId)).emit('chatMessage', message);
      return { message };
    }),
  );

  socket.on(
    'deleteChatMessage',
    handlers.acked(ZDeleteChatMessageRequest, async ({ eventId, messageId }) => {
      await ownedEvent(db, account, eventId, ONLY_CREATOR_DELETES_MESSAGE);
      if (!(await softDeleteChatMessage(db, eventId, messageId)))
        throw new LiveError('NOT_FOUND', MESSAGE_NOT_FOUND_MESSAGE);
      live.io.to(chatRoom(eventId)).emit('chatMessageDeleted', { eventId, messageId });
      return {};
    }),
  );

  socket.on(
    'muteUser',
    handlers.acked(ZMuteUserRequest, async ({ eventId, userId }) => {
      await ownedEvent(db, account, eventId, ONLY_CREATOR_MUTES_MESSAGE);
      if (userId === account.id) throw new LiveError('CONFLICT', CANNOT_MUTE_YOURSELF_MESSAGE);
      if (!(await findAccountById(db, userId))) throw new LiveError('NOT_FOUND', USER_NOT_FOUND_MESSAGE);
      await muteAccount(db, eventId, userId);
      return {};
    }),
  );
}

function toChatMessage({ message, author }: ChatMessageWithAuthor): ChatMessage {
  return {
    id: message.id,
    eventId: message.eventId,
    userId: author.id,
    username: `${author.firstName} ${author.lastName}`,
    content: message.content,
    timestamp: message.createdAt.getTime(),
    userAvatar: author.profileImage ? PROFILE_IMAGE_PATHS[author.role] + author.profileImage : null,
  };
}
