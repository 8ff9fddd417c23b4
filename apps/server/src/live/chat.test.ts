import type { SessionUser } from '@stagedoor/shared/accounts';
import type { Event } from '@stagedoor/shared/events';
import { CHAT_HISTORY_LIMIT, CHAT_MESSAGE_MAX_LENGTH } from '@stagedoor/shared/limits';
import type { ChatMessage } from '@stagedoor/shared/live';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  eventWithSales,
  postForm,
  ticketHolder,
  type TestAccount,
} from '../../test/factories';
import { pngWithMetadata } from '../../test/images';
import { ack, listen, LiveClients, record, settle, waitFor, type LiveClient } from '../../test/live-clients';
import { createTestApp } from '../../test/test-app';

const app = await createTestApp();
const clients = new LiveClients(await listen(app));
afterEach(() => clients.closeAll());
afterAll(() => app.close());

/** A socket of the account that joined the event's chat. */
async function inChat(account: TestAccount, event: Event): Promise<LiveClient> {
  const socket = await clients.connect(account);
  expect(await ack(socket, 'joinChat', { eventId: event.id })).toMatchObject({ success: true });
  return socket;
}

async function send(socket: LiveClient, event: Event, content: string) {
  return ack(socket, 'chatMessage', { eventId: event.id, content });
}

async function sent(socket: LiveClient, event: Event, content: string): Promise<ChatMessage> {
  const answer = await send(socket, event, content);
  if (!answer.success) throw new Error(`message refused: ${answer.error}`);
  return answer.message;
}

async function history(socket: LiveClient, event: Event): Promise<ChatMessage[]> {
  const answer = await ack(socket, 'joinChat', { eventId: event.id });
  if (!answer.success) throw new Error(`joinChat refused: ${answer.error}`);
  return answer.messages;
}

describe('joinChat', () => {
  it('is for the event creator and ticket holders', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    const stranger = await clients.connect(await createUser(app));
    expect(await ack(stranger, 'joinChat', { eventId: event.id })).toEqual({
      success: false,
      code: 'TICKET_REQUIRED',
      error: 'You need a ticket for this event',
    });
    // Refused the chat, it cannot talk in it either.
    expect(await send(stranger, event, 'hello?')).toEqual({
      success: false,
      code: 'FORBIDDEN',
      error: 'Join the chat before sending messages',
    });
    expect(await history(await clients.connect(creator), event)).toEqual([]);
    expect(await history(await clients.connect((await ticketHolder(app, { event })).fan), event)).toEqual([]);
  });
});

describe('chatMessage', () => {
  it('reaches everyone in the chat, the sender too, as the server says who sent it and when', async () => {
    const creator = await createCreator(app, { firstName: 'Maya', lastName: 'Rivers' });
    const avatar = await postForm(
      app,
      '/api/auth/profile/creator/profile-image',
      creator.token,
      {},
      { profileImageUrl: { data: await pngWithMetadata(), filename: 'me.png', type: 'image/png' } },
    );
    expect(avatar.statusCode).toBe(200);
    const profileImage = avatar.json<SessionUser>().profileImageUrl;
    const { event, fan } = await ticketHolder(app, { creator, fan: { firstName: 'Sam', lastName: 'Lee' } });
    const creatorSocket = await inChat(creator, event);
    const fanSocket = await inChat(fan, event);
    const outside = await clients.connect((await ticketHolder(app, { event })).fan);
    const unseen = record(outside, 'chatMessage');

    const toCreator = waitFor(creatorSocket, 'chatMessage');
    const toFan = waitFor(fanSocket, 'chatMessage');
    const before = Date.now();
    const answer = await ack(fanSocket, 'chatMessage', {
      eventId: event.id,
      content: '  Hello from the front row!  ',
      userId: creator.user.id,
      username: 'The Creator',
      timestamp: 0,
      userAvatar: '/api/creators/profile-image/forged.png',
    });
    const expected: ChatMessage = {
      id: expect.any(Number),
      eventId: event.id,
      userId: fan.user.id,
      username: 'Sam Lee',
      content: 'Hello from the front row!',
      timestamp: expect.any(Number),
      userAvatar: null,
      isCreator: false,
    };
    expect(answer).toEqual({ success: true, message: expected });
    expect(await toCreator).toEqual(expected);
    expect(await toFan).toEqual(expected);
    const message = (answer as { message: ChatMessage }).message;
    expect(message.timestamp).toBeGreaterThanOrEqual(before - 1_000);
    expect(message.timestamp).toBeLessThanOrEqual(Date.now() + 1_000);

    expect(await sent(creatorSocket, event, 'Thanks for coming')).toMatchObject({
      id: message.id + 1,
      userId: creator.user.id,
      username: 'Maya Rivers',
      userAvatar: `/api/creators/profile-image/${profileImage}`,
      isCreator: true,
    });
    await settle(outside);
    expect(unseen).toEqual([]);
  });

  it('refuses a blank message and one over 500 characters', async () => {
    const { event, fan } = await ticketHolder(app);
    const socket = await inChat(fan, event);
    expect(await send(socket, event, '   \n ')).toEqual({
      success: false,
      code: 'INVALID_REQUEST',
      error: 'Message is required',
    });
    expect(await send(socket, event, 'x'.repeat(CHAT_MESSAGE_MAX_LENGTH + 1))).toEqual({
      success: false,
      code: 'INVALID_REQUEST',
      error: 'Message must be at most 500 characters',
    });
    expect(await sent(socket, event, 'x'.repeat(CHAT_MESSAGE_MAX_LENGTH))).toMatchObject({
      content: 'x'.repeat(CHAT_MESSAGE_MAX_LENGTH),
    });
    expect(await history(socket, event)).toHaveLength(1);
  });

  it('refuses more than 5 messages in 5 seconds from one account, whatever its sockets', async () => {
    const { event, fan } = await ticketHolder(app);
    const [first, second] = [await inChat(fan, event), await inChat(fan, event)];
    const other = await inChat((await ticketHolder(app, { event })).fan, event);
    for (let n = 1; n <= 5; n += 1) await sent(n % 2 ? first : second, event, `message ${n}`);
    for (const socket of [first, second]) {
      expect(await send(socket, event, 'one more')).toEqual({
        success: false,
        code: 'RATE_LIMITED',
        error: 'You are sending messages too fast',
      });
    }
    expect(await sent(other, event, 'I can still talk')).toMatchObject({ content: 'I can still talk' });
    expect((await history(other, event)).map((message) => message.content)).not.toContain('one more');
  });

  it('is refused to a fan whose ticket was refunded since joining (a cancelled event), who is then out of the chat', async () => {
    const { creator, event, fan: holder } = await ticketHolder(app);
    const fan = await inChat(holder, event);
    const host = await inChat(creator, event);
    const cancelled = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}/cancel`,
      headers: authHeader(creator.token),
    });
    expect(cancelled.statusCode).toBe(200);

    expect(await send(fan, event, 'Still here?')).toEqual({
      success: false,
      code: 'TICKET_REQUIRED',
      error: 'You need a ticket for this event',
    });
    const heard = record(fan, 'chatMessage');
    await sent(host, event, 'Sorry, the show is off');
    await settle(fan);
    expect(heard).toEqual([]);
  });
});

describe('who wrote a message', () => {
  it("marks the creator's messages as theirs, live and in the history, and nobody else's", async () => {
    const { creator, event, fan } = await ticketHolder(app);
    const creatorSocket = await inChat(creator, event);
    const fanSocket = await inChat(fan, event);
    const fromCreator = waitFor(fanSocket, 'chatMessage');
    expect(await sent(creatorSocket, event, 'Welcome!')).toMatchObject({ isCreator: true });
    expect(await fromCreator).toMatchObject({ content: 'Welcome!', isCreator: true });
    expect(await sent(fanSocket, event, 'Hello')).toMatchObject({ isCreator: false });
    // The creator's other event's chat is theirs too; another creator's is not.
    const otherCreator = await createCreator(app);
    const otherEvent = await createEvent(app, otherCreator);
    await buyTicketsOk(app, creator, otherEvent.id, 1);
    expect(await sent(await inChat(creator, otherEvent), otherEvent, 'Hi there')).toMatchObject({
      isCreator: false,
    });
    expect((await history(fanSocket, event)).map(({ content, isCreator }) => [content, isCreator])).toEqual([
      ['Welcome!', true],
      ['Hello', false],
    ]);
  });

  it("shows a fan whose name reads as the creator's with their nickname, so nobody can pass for the creator", async () => {
    const creator = await createCreator(app, { firstName: 'Maya', lastName: 'Rivers' });
    const event = await createEvent(app, creator);
    const lookalikes = [
      { firstName: 'maya', lastName: 'RIVERS' },
      // Full-width letters, a doubled space, a zero-width space.
      { firstName: 'Ｍａｙａ ', lastName: '\u200BRivers' },
      { firstName: 'Maya\u00A0', lastName: 'Rivers' },
      // Letters of other scripts drawn like Latin ones: Cyrillic М, а and у; a Greek ν.
      { firstName: '\u041C\u0430\u0443\u0430', lastName: 'Rivers' },
      { firstName: 'Maya', lastName: 'Ri\u03BDers' },
      // Accents and a lowercase "rn" for "m".
      { firstName: 'rnáyá', lastName: 'Rivérs' },
    ];
    const creatorSocket = await inChat(creator, event);
    for (const names of lookalikes) {
      const { fan } = await ticketHolder(app, { event, fan: names });
      const socket = await inChat(fan, event);
      const shown = `${fan.user.firstName} ${fan.user.lastName} (@${fan.user.nickname})`;
      const toCreator = waitFor(creatorSocket, 'chatMessage');
      expect(await sent(socket, event, "It's me, Maya")).toMatchObject({ username: shown, isCreator: false });
      expect(await toCreator).toMatchObject({ username: shown });
    }
    // A name that only resembles it stays as it is, and the creator's own is never changed.
    const namesake = await inChat(
      (await ticketHolder(app, { event, fan: { firstName: 'Maya', lastName: 'Rivera' } })).fan,
      event,
    );
    expect(await sent(namesake, event, 'Hi')).toMatchObject({ username: 'Maya Rivera' });
    expect(await sent(creatorSocket, event, 'The real one')).toMatchObject({ username: 'Maya Rivers' });

    const shownNames = (await history(creatorSocket, event)).map((message) => message.username);
    expect(shownNames.filter((name) => name === 'Maya Rivers')).toHaveLength(1);
    expect(shownNames.filter((name) => name.includes('(@'))).toHaveLength(lookalikes.length);
  });
});

describe('the history', () => {
  it('is the last 50 messages, oldest first, with increasing ids', async () => {
    // The rate limit allows 5 messages per account at a time: 11 accounts say 5 each.
    const { creator, event, fans } = await eventWithSales(app, {
      sales: Array.from({ length: 10 }, () => 1),
    });
    const speakers = [creator, ...fans];
    const sockets = await Promise.all(speakers.map((speaker) => inChat(speaker, event)));
    for (let n = 1; n <= 55; n += 1)
      await sent(sockets[(n - 1) % sockets.length] as LiveClient, event, `#${n}`);

    const late = await clients.connect((await ticketHolder(app, { event })).fan);
    const messages = await history(late, event);
    expect(messages).toHaveLength(CHAT_HISTORY_LIMIT);
    expect(messages.map((message) => message.content)).toEqual(
      Array.from({ length: 50 }, (_, index) => `#${index + 6}`),
    );
    const ids = messages.map((message) => message.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('deleteChatMessage', () => {
  it('lets the event creator delete a message, for everyone and from the history', async () => {
    const { creator, event, fan } = await ticketHolder(app);
    const fanSocket = await inChat(fan, event);
    const creatorSocket = await clients.connect(creator);
    const kept = await sent(fanSocket, event, 'Nice set');
    const rude = await sent(fanSocket, event, 'Something rude');

    const deleted = waitFor(fanSocket, 'chatMessageDeleted');
    expect(await ack(creatorSocket, 'deleteChatMessage', { eventId: event.id, messageId: rude.id })).toEqual({
      success: true,
    });
    expect(await deleted).toEqual({ eventId: event.id, messageId: rude.id });
    expect(await history(fanSocket, event)).toEqual([kept]);
  });

  it('is refused to anyone else, and for a message of another event', async () => {
    const { event, fan } = await ticketHolder(app);
    const fanSocket = await inChat(fan, event);
    const message = await sent(fanSocket, event, 'Mine');
    const otherCreator = await createCreator(app);
    const otherEvent = await createEvent(app, otherCreator);

    for (const socket of [fanSocket, await clients.connect(otherCreator)]) {
      expect(await ack(socket, 'deleteChatMessage', { eventId: event.id, messageId: message.id })).toEqual({
        success: false,
        code: 'FORBIDDEN',
        error: 'Only the event creator can delete chat messages',
      });
    }
    const otherSocket = await clients.connect(otherCreator);
    expect(
      await ack(otherSocket, 'deleteChatMessage', { eventId: otherEvent.id, messageId: message.id }),
    ).toEqual({ success: false, code: 'NOT_FOUND', error: 'Message not found' });
    expect(await history(fanSocket, event)).toEqual([message]);
  });
});

describe('muteUser', () => {
  it("silences an account in the creator's event only", async () => {
    const { creator, event, fan: loud } = await ticketHolder(app);
    const otherEvent = await createEvent(app, creator);
    await buyTicketsOk(app, loud, otherEvent.id, 1);
    const loudSocket = await inChat(loud, event);
    const calm = await inChat((await ticketHolder(app, { event })).fan, event);
    const creatorSocket = await clients.connect(creator);

    expect(await ack(creatorSocket, 'muteUser', { eventId: event.id, userId: loud.user.id })).toEqual({
      success: true,
    });
    expect(await send(loudSocket, event, 'Let me talk')).toEqual({
      success: false,
      code: 'FORBIDDEN',
      error: 'You have been muted in this chat',
    });
    expect(await sent(calm, event, 'Still here')).toMatchObject({ content: 'Still here' });
    expect(await ack(loudSocket, 'joinChat', { eventId: otherEvent.id })).toMatchObject({ success: true });
    expect(await sent(loudSocket, otherEvent, 'Over here then')).toMatchObject({ content: 'Over here then' });
    // Muting twice changes nothing.
    expect(await ack(creatorSocket, 'muteUser', { eventId: event.id, userId: loud.user.id })).toEqual({
      success: true,
    });
  });

  it('is for the event creator only, never against themselves or an unknown account', async () => {
    const { creator, event, fan } = await ticketHolder(app);
    const fanSocket = await inChat(fan, event);
    const creatorSocket = await clients.connect(creator);
    const { fan: other } = await ticketHolder(app, { event });
    expect(await ack(fanSocket, 'muteUser', { eventId: event.id, userId: other.user.id })).toEqual({
      success: false,
      code: 'FORBIDDEN',
      error: 'Only the event creator can mute users',
    });
    expect(await ack(creatorSocket, 'muteUser', { eventId: event.id, userId: creator.user.id })).toEqual({
      success: false,
      code: 'CONFLICT',
      error: 'You cannot mute yourself',
    });
    expect(await ack(creatorSocket, 'muteUser', { eventId: event.id, userId: 2147483647 })).toEqual({
      success: false,
      code: 'NOT_FOUND',
      error: 'User not found',
    });
    expect(await sent(fanSocket, event, 'Not muted')).toMatchObject({ content: 'Not muted' });
  });
});

describe('an event with a chat', () => {
  it('can still be deleted while it has no sales (its chat goes with it)', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator);
    await sent(await inChat(creator, event), event, 'Testing, testing');
    const response = await api(app, {
      method: 'DELETE',
      url: `/api/events/${event.id}`,
      headers: authHeader(creator.token),
    });
    expect(response.statusCode).toBe(204);
  });
});
