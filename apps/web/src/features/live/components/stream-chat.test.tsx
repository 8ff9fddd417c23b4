import type { ChatMessage } from '@stagedoor/shared/live';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastContainer } from 'react-toastify';
import { describe, expect, it } from 'vitest';
import { aCreator, aUser } from '../../../test/api-stub';
import { FakeSocket } from '../testing/fake-socket';
import { StreamChat } from './stream-chat';

const ada = aUser();
const grace = aCreator();

function aMessage(overrides: Partial<ChatMessage> = {}): ChatMessage {
  return {
    id: 1,
    eventId: 4,
    userId: ada.id,
    username: 'Ada Lovelace',
    content: 'Hello there',
    timestamp: new Date(2030, 0, 1, 21, 5).getTime(),
    userAvatar: null,
    isCreator: false,
    ...overrides,
  };
}

function renderChat({
  history = [] as ChatMessage[],
  isConnected = true,
  user = ada,
  isModerator = false,
} = {}) {
  const socket = new FakeSocket();
  socket.connected = isConnected;
  socket.onAck('joinChat', () => ({ success: true, messages: history }));
  const view = render(
    <>
      <StreamChat
        socket={socket.asLiveSocket}
        isConnected={isConnected}
        eventId={4}
        user={user}
        isModerator={isModerator}
      />
      <ToastContainer />
    </>,
  );
  return { ...view, socket, user: userEvent.setup() };
}

const messageInput = () => screen.getByRole('textbox', { name: 'Message' });
const sendButton = () => screen.getByRole('button', { name: 'Send' });

describe('stream chat', () => {
  it('invites the first message while the chat is empty', async () => {
    const { socket } = renderChat();

    expect(await screen.findByText('No messages yet. Be the first to write!')).toBeInTheDocument();
    expect(socket.payloadsOf('joinChat')).toEqual([{ eventId: 4 }]);
  });

  it("shows the history with each time in the reader's zone, on the site's 12-hour clock", async () => {
    renderChat({ history: [aMessage({ timestamp: Date.UTC(2030, 0, 1, 21, 5) })] });

    const line = await screen.findByRole('listitem');
    expect(line).toHaveTextContent('Ada Lovelace');
    expect(line).toHaveTextContent('Hello there');
    // The reader's zone is UTC (aUser).
    expect(within(line).getByText('9:05 PM')).toBeInTheDocument();
  });

  it("marks the creator's messages with a Creator badge, and nobody else's", async () => {
    renderChat({
      history: [
        aMessage({ id: 1, userId: grace.id, username: 'Grace Hopper', content: 'Welcome!', isCreator: true }),
        // A fan named like the creator: the server appends their nickname, and no badge.
        aMessage({ id: 2, username: 'Grace Hopper (@grace-fan)', content: "It's me", isCreator: false }),
      ],
    });

    const [creator, fan] = (await screen.findAllByRole('listitem')) as [HTMLElement, HTMLElement];
    expect(within(creator).getByText('Creator')).toBeVisible();
    expect(creator).toHaveTextContent('Grace HopperCreator');
    expect(within(fan).queryByText('Creator')).not.toBeInTheDocument();
    expect(fan).toHaveTextContent('Grace Hopper (@grace-fan)');
  });

  it('cannot send while disconnected, nor a blank message', async () => {
    const { user, rerender, socket } = renderChat({ isConnected: false });
    await user.type(messageInput(), 'Hi');
    expect(sendButton()).toBeDisabled();

    socket.connected = true;
    rerender(
      <StreamChat socket={socket.asLiveSocket} isConnected eventId={4} user={ada} isModerator={false} />,
    );
    expect(sendButton()).toBeEnabled();
    await user.clear(messageInput());
    await user.type(messageInput(), '   ');
    expect(sendButton()).toBeDisabled();
    expect(messageInput()).toHaveAttribute('maxLength', '500');
  });

  it('sends the message trimmed and shows it once, from the server, however many times it comes', async () => {
    const { user, socket } = renderChat();
    const sent = aMessage({ id: 9, content: 'Great show' });
    socket.onAck('chatMessage', () => ({ success: true, message: sent }));

    await user.type(messageInput(), '  Great show  ');
    await user.click(sendButton());

    expect(socket.payloadsOf('chatMessage')).toEqual([
      expect.objectContaining({ eventId: 4, userId: ada.id, content: 'Great show' }),
    ]);
    expect(await screen.findByText('Great show')).toBeInTheDocument();
    expect(messageInput()).toHaveValue('');
    socket.serverEmit('chatMessage', sent);
    socket.serverEmit('chatMessage', aMessage({ id: 10, content: 'Welcome!', username: 'Grace Hopper' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(2);
    expect(screen.getAllByText('Great show')).toHaveLength(1);
  });

  it('keeps the draft and shows the reason when the server refuses a message', async () => {
    const { user, socket } = renderChat();
    socket.onAck('chatMessage', () => ({ success: false, error: 'You are sending messages too fast' }));

    await user.type(messageInput(), 'spam');
    await user.click(sendButton());

    expect(await screen.findByText('You are sending messages too fast')).toBeInTheDocument();
    expect(messageInput()).toHaveValue('spam');
    expect(screen.queryByRole('listitem')).not.toBeInTheDocument();
  });

  it('removes a message the creator deleted and ignores other chats', async () => {
    const { socket } = renderChat({ history: [aMessage({ id: 1 }), aMessage({ id: 2, content: 'Bye' })] });
    expect(await screen.findAllByRole('listitem')).toHaveLength(2);

    socket.serverEmit('chatMessageDeleted', { eventId: 5, messageId: 1 });
    socket.serverEmit('chatMessage', aMessage({ id: 3, eventId: 5, content: 'Elsewhere' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(2);

    socket.serverEmit('chatMessageDeleted', { eventId: 4, messageId: 1 });
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
    expect(screen.getByText('Bye')).toBeInTheDocument();
  });

  it("gives the event's creator delete and mute buttons on others' messages only", async () => {
    const { user, socket } = renderChat({
      user: grace,
      isModerator: true,
      history: [
        aMessage({ id: 1 }),
        aMessage({ id: 2, userId: grace.id, username: 'Grace Hopper', content: 'Mine' }),
      ],
    });
    socket.onAck('deleteChatMessage', () => ({ success: true }));
    socket.onAck('muteUser', () => ({ success: true }));
    const [theirs, mine] = (await screen.findAllByRole('listitem')) as [HTMLElement, HTMLElement];
    expect(within(mine).queryByRole('button')).not.toBeInTheDocument();

    await user.click(within(theirs).getByRole('button', { name: 'Mute Ada Lovelace' }));
    expect(socket.payloadsOf('muteUser')).toEqual([{ eventId: 4, userId: ada.id }]);
    expect(await screen.findByText('Ada Lovelace can no longer write in this chat')).toBeInTheDocument();

    await user.click(within(theirs).getByRole('button', { name: 'Delete comment by Ada Lovelace' }));
    expect(socket.payloadsOf('deleteChatMessage')).toEqual([{ eventId: 4, messageId: 1 }]);
    expect(screen.getAllByRole('listitem')).toHaveLength(1);
  });

  it('closes the chat to an account the server refuses', async () => {
    const socket = new FakeSocket();
    socket.connected = true;
    socket.onAck('joinChat', () => ({ success: false, error: 'You need a ticket for this event' }));
    render(
      <StreamChat socket={socket.asLiveSocket} isConnected eventId={4} user={ada} isModerator={false} />,
    );

    expect(await screen.findByRole('alert')).toHaveTextContent('The chat is not open to this account.');
    await userEvent.type(messageInput(), 'Hi');
    expect(sendButton()).toBeDisabled();
  });

  it('offers no moderation to a viewer', async () => {
    renderChat({ history: [aMessage({ userId: 99, username: 'Someone Else' })] });

    const line = await screen.findByRole('listitem');
    expect(within(line).queryByRole('button')).not.toBeInTheDocument();
  });
});
