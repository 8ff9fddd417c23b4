import type { SessionUser } from '@stagedoor/shared/accounts';
import type { ChatMessage } from '@stagedoor/shared/live';
import { imageUrls } from '@stagedoor/shared/images';
import { useEffect, useState } from 'react';
import { notify } from '../../../lib/notify';
import { listen, type LiveSocket } from '../../../lib/socket';
import { mergeMessages } from '../lib/chat-messages';

type Options = {
  socket: LiveSocket | null;
  isConnected: boolean;
  eventId: number;
  user: SessionUser;
};

/**
 * The event's chat (spec §4 "Chat"): the recent history on every (re)connection, then each message the
 * server broadcasts. Messages are shown as the server has them, never before it accepted them.
 */
export function useChat({ socket, isConnected, eventId, user }: Options) {
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  /**
   * The server turned the chat down (no ticket, …). Its reason is not repeated here: the stream panel
   * beside the chat already shows it.
   */
  const [isRefused, setIsRefused] = useState(false);

  useEffect(() => {
    if (!socket || !isConnected) return;
    let active = true;
    /** Broadcasts that arrive while the history is on its way; the history does not replace them. */
    let sinceJoin: ChatMessage[] | null = [];

    const onMessage = (message: ChatMessage) => {
      if (message.eventId !== eventId) return;
      sinceJoin?.push(message);
      setMessages((list) => mergeMessages(list, [message]));
    };
    const onDeleted = ({ eventId: chatId, messageId }: { eventId: number; messageId: number }) => {
      if (chatId === eventId) setMessages((list) => list.filter((message) => message.id !== messageId));
    };
    const stopListening = listen(socket, { chatMessage: onMessage, chatMessageDeleted: onDeleted });

    socket.emitWithAck('joinChat', { eventId }).then(
      (answer) => {
        if (!active) return;
        if (answer.success) {
          // The history replaces what was shown, so messages deleted while offline disappear.
          setMessages(mergeMessages(answer.messages, sinceJoin ?? []));
          setIsRefused(false);
        } else {
          setIsRefused(true);
        }
        sinceJoin = null;
      },
      () => {
        if (active) notify('Could not load the chat', 'error');
      },
    );

    return () => {
      active = false;
      stopListening();
    };
  }, [socket, isConnected, eventId]);

  /** Sends a message; answers whether the server took it. */
  const send = async (text: string): Promise<boolean> => {
    const content = text.trim();
    if (!content || !socket?.connected) return false;
    try {
      const answer = await socket.emitWithAck('chatMessage', {
        eventId,
        userId: user.id,
        username: `${user.firstName} ${user.lastName}`,
        content,
        timestamp: Date.now(),
        userAvatar: user.profileImageUrl && imageUrls.profile(user.role, user.profileImageUrl),
      });
      if (!answer.success) {
        notify(answer.error, 'error');
        return false;
      }
      setMessages((list) => mergeMessages(list, [answer.message]));
      return true;
    } catch {
      notify('Your message could not be sent. Please try again.', 'error');
      return false;
    }
  };

  const moderate = async (action: Promise<{ success: true } | { success: false; error: string }>) => {
    try {
      const answer = await action;
      if (!answer.success) notify(answer.error, 'error');
      return answer.success;
    } catch {
      notify('The chat did not answer. Please try again.', 'error');
      return false;
    }
  };

  const deleteMessage = async (message: ChatMessage) => {
    if (!socket) return;
    if (await moderate(socket.emitWithAck('deleteChatMessage', { eventId, messageId: message.id }))) {
      setMessages((list) => list.filter(({ id }) => id !== message.id));
    }
  };

  const muteAuthor = async (message: ChatMessage) => {
    if (!socket) return;
    if (await moderate(socket.emitWithAck('muteUser', { eventId, userId: message.userId }))) {
      notify(`${message.username} can no longer write in this chat`, 'success');
    }
  };

  return {
    messages,
    isRefused,
    canSend: isConnected && !isRefused,
    send,
    deleteMessage,
    muteAuthor,
  };
}
