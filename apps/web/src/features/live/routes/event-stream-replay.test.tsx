import type { Event } from '@stagedoor/shared/events';
import type { Replay, ReplayChatMessage } from '@stagedoor/shared/replays';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  aPublicCreator,
  anEvent,
  aUser,
  hoursFromNow,
  signedInAs,
  stubApi,
  type Handler,
} from '../../../test/api-stub';
import { renderApp } from '../../../test/render-app';
import { REPLAY_PROCESSING_POLL_MS } from '../api/replay';
import { createdSockets } from '../testing/fake-socket';

vi.mock('socket.io-client', async () => (await import('../testing/fake-socket')).fakeSocketIoClient());

const ada = aUser();
const FILE = '/api/events/4/replay/file?file=replay-1.webm&expires=1&signature=first';
const FRESH_FILE = '/api/events/4/replay/file?file=replay-1.webm&expires=2&signature=fresh';
const ready = (url = FILE): Replay => ({
  status: 'ready',
  durationS: 125,
  url,
  expiresAt: new Date(Date.now() + 30 * 60_000).toISOString(),
});

function aChatMessage(id: number, offsetS: number, content: string): ReplayChatMessage {
  return {
    id,
    eventId: 4,
    userId: 7,
    username: 'Ada Lovelace',
    content,
    timestamp: Date.parse('2030-03-05T18:30:00.000Z') + offsetS * 1000,
    userAvatar: null,
    isCreator: false,
    offsetS,
  };
}
const showChat = [
  aChatMessage(1, 2, 'Hello from the start'),
  aChatMessage(2, 30.5, 'What a solo'),
  aChatMessage(3, 90, 'Bravo!'),
];

/** The stream page's reads, with GET /events/4/replay answered by `replay`. */
function stubReplayApi(replay: Handler, event: Event = anEvent()) {
  return stubApi({
    ...signedInAs(ada),
    'GET /events/4': { body: event },
    'GET /creators/3': { body: aPublicCreator() },
    'GET /live/config': { body: { iceServers: [], media: 'p2p' } },
    'GET /events/4/replay': replay,
    'GET /events/4/chat': { body: { messages: showChat } },
  });
}

const replayReads = (calls: ReturnType<typeof stubApi>) =>
  calls.filter(({ method, path }) => method === 'GET' && path === '/events/4/replay').length;

/**
 * Opens the stream page as a ticket holder, connected; `joinStream` is answered with `join` (not live
 * unless told), and with `endShow` the creator stops the show the viewer was watching.
 */
async function openStreamPage({ endShow = false } = {}) {
  const view = renderApp('/events/4/stream');
  await screen.findByRole('region', { name: 'Stream' });
  const socket = createdSockets.at(-1);
  if (!socket) throw new Error('the page opened no socket');
  socket.onAck('joinStream', () =>
    endShow
      ? { success: true, viewerCount: 1 }
      : { success: false, code: 'STREAM_NOT_LIVE', error: 'Stream not found' },
  );
  socket.onAck('joinChat', () => ({ success: true, messages: [] }));
  socket.serverConnect();
  await waitFor(() => expect(socket.payloadsOf('joinStream')).toHaveLength(1));
  if (endShow) act(() => socket.serverEmit('streamEnded', { reason: 'stopped' }));
  return { ...view, socket };
}

const replayVideo = () => screen.getByLabelText<HTMLVideoElement>('Replay of the show');

/** The video reached `seconds`, as a browser tells it. */
function playTo(video: HTMLVideoElement, seconds: number) {
  video.currentTime = seconds;
  fireEvent.timeUpdate(video);
}

beforeEach(() => {
  createdSockets.length = 0;
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockReturnValue(undefined);
});

describe('the replay on the stream page', () => {
  it('says the replay is being made after the show, asks again every 10 s, and plays it once ready', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let answer: Replay = { status: 'processing' };
    const calls = stubReplayApi(() => ({ body: answer }));
    await openStreamPage({ endShow: true });

    expect(
      await screen.findByText(/The replay will be ready a few minutes after the show\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'The show has ended' })).toBeInTheDocument();
    expect(replayReads(calls)).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(REPLAY_PROCESSING_POLL_MS));
    await waitFor(() => expect(replayReads(calls)).toBe(2));
    expect(screen.queryByLabelText('Replay of the show')).not.toBeInTheDocument();

    answer = ready();
    await act(() => vi.advanceTimersByTimeAsync(REPLAY_PROCESSING_POLL_MS));
    await waitFor(() => expect(replayVideo()).toHaveAttribute('src', FILE));
    expect(replayVideo()).toHaveAttribute('controls');
    expect(screen.queryByRole('heading', { name: 'The show has ended' })).not.toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Replay' })).toHaveTextContent('2:05 long');
    // Ready: nobody asks again.
    await act(() => vi.advanceTimersByTimeAsync(3 * REPLAY_PROCESSING_POLL_MS));
    expect(replayReads(calls)).toBe(3);
  });

  it('says when the replay could not be made', async () => {
    stubReplayApi({ body: { status: 'failed' } });
    await openStreamPage({ endShow: true });

    expect(await screen.findByText('The replay of this show could not be made.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'The show has ended' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Replay of the show')).not.toBeInTheDocument();
  });

  it('shows the end of the show as before when there is no replay', async () => {
    const calls = stubReplayApi({ body: { status: 'none' } });
    await openStreamPage({ endShow: true });

    await waitFor(() => expect(replayReads(calls)).toBe(1));
    expect(
      await screen.findByText(
        'Thanks for watching. Should the creator go live again, the stream comes back here by itself.',
      ),
    ).toBeInTheDocument();
    // The live chat stays, as it was.
    expect(screen.getByRole('heading', { name: 'Live chat' })).toBeInTheDocument();
  });

  it("says the server's reason when it will not give the replay", async () => {
    stubReplayApi({
      status: 403,
      body: { statusCode: 403, code: 'FORBIDDEN', message: 'You need a ticket for this event' },
    });
    await openStreamPage({ endShow: true });

    expect(await screen.findByText('You need a ticket for this event')).toBeInTheDocument();
    expect(screen.queryByLabelText('Replay of the show')).not.toBeInTheDocument();
  });

  it('plays the replay of a show whose time has passed to a viewer who finds nothing live', async () => {
    stubReplayApi({ body: ready() }, anEvent({ date: hoursFromNow(-3) }));
    await openStreamPage();

    await waitFor(() => expect(replayVideo()).toHaveAttribute('src', FILE));
    expect(screen.queryByText('Waiting for stream to start')).not.toBeInTheDocument();
  });

  it('keeps the waiting room, without asking for a replay, before the show', async () => {
    const calls = stubReplayApi({ body: ready() });
    await openStreamPage();

    expect(await screen.findByText('Waiting for stream to start')).toBeInTheDocument();
    expect(replayReads(calls)).toBe(0);
  });

  it('shows each chat message once the video reaches it, and hides it again after a seek back', async () => {
    stubReplayApi({ body: ready() });
    await openStreamPage({ endShow: true });
    const video = await waitFor(replayVideo);
    const chat = screen.getByRole('complementary', { name: 'Chat' });
    const log = within(chat).getByRole('log', { name: 'Conversation' });
    const said = () =>
      within(log)
        .queryAllByRole('listitem')
        .map((item) => item.textContent);

    // Read-only: nowhere to write.
    expect(within(chat).queryByRole('textbox')).not.toBeInTheDocument();
    expect(within(chat).queryByRole('button', { name: 'Send' })).not.toBeInTheDocument();
    expect(
      await within(log).findByText('The messages of the show appear here as the replay reaches them.'),
    ).toBeInTheDocument();

    playTo(video, 2);
    expect(said()).toEqual([expect.stringContaining('Hello from the start')]);
    expect(within(log).getByText('0:02')).toHaveAttribute('dateTime', 'PT2S');

    playTo(video, 95);
    expect(said()).toEqual([
      expect.stringContaining('Hello from the start'),
      expect.stringContaining('What a solo'),
      expect.stringContaining('Bravo!'),
    ]);
    expect(within(log).getByText('1:30')).toBeInTheDocument();

    // Seeking back: what was said later goes again.
    video.currentTime = 30;
    fireEvent.seeked(video);
    expect(said()).toEqual([expect.stringContaining('Hello from the start')]);
  });

  it('plays at the chosen speed', async () => {
    stubReplayApi({ body: ready() });
    const { user } = await openStreamPage({ endShow: true });
    const video = await waitFor(replayVideo);
    const speed = screen.getByRole('combobox', { name: 'Playback speed' });
    expect(speed).toHaveValue('1');
    expect(
      within(speed)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['0.75×', 'Normal', '1.25×', '1.5×', '2×']);

    await user.selectOptions(speed, '1.5×');
    expect(video.playbackRate).toBe(1.5);
    await user.selectOptions(speed, '0.75×');
    expect(video.playbackRate).toBe(0.75);
    expect(speed).toHaveValue('0.75');
  });

  it('asks for a fresh address when the video fails, and carries on where it was, at its speed', async () => {
    let answer = ready();
    const calls = stubReplayApi(() => ({ body: answer }));
    const { user } = await openStreamPage({ endShow: true });
    const video = await waitFor(replayVideo);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Playback speed' }), '2×');
    fireEvent.play(video);
    playTo(video, 61);
    const play = vi.mocked(HTMLMediaElement.prototype.play);
    play.mockClear();

    // The address expired: the file answers 403, the element stops on an error.
    answer = ready(FRESH_FILE);
    fireEvent.error(video);
    await waitFor(() => expect(video).toHaveAttribute('src', FRESH_FILE));
    expect(replayReads(calls)).toBe(2);
    video.currentTime = 0;
    video.playbackRate = 1;
    fireEvent.loadedMetadata(video);

    expect(video.currentTime).toBe(61);
    expect(video.playbackRate).toBe(2);
    expect(play).toHaveBeenCalledTimes(1);
    // The chat stays where the video is.
    expect(screen.getByText('What a solo')).toBeInTheDocument();
  });

  it('asks for a fresh address each time one expires, however often, while the viewer keeps it paused', async () => {
    let fresh = 0;
    const calls = stubReplayApi(() => {
      fresh += 1;
      return { body: ready(FRESH_FILE.replace('signature=fresh', `signature=fresh-${fresh}`)) };
    });
    await openStreamPage({ endShow: true });
    const video = await waitFor(replayVideo);
    fireEvent.pause(video);
    const play = vi.mocked(HTMLMediaElement.prototype.play);
    play.mockClear();

    // Paused for hours: each seek there finds its address expired (the range refused), and the fresh
    // address finds the frames there (the seek is done).
    for (const [index, at] of [40, 100, 10, 70].entries()) {
      video.currentTime = at;
      fireEvent.seeking(video);
      fireEvent.error(video);
      await waitFor(() => expect(replayReads(calls)).toBe(index + 2));
      await waitFor(() => expect(video.getAttribute('src')).toContain(`signature=fresh-${index + 2}`));
      video.currentTime = 0;
      fireEvent.loadedMetadata(video);
      expect(video.currentTime).toBe(at);
      fireEvent.seeked(video);
    }
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    // Still paused, as the viewer left it.
    expect(play).not.toHaveBeenCalled();
  });

  it('offers "Try again" when fresh addresses keep failing', async () => {
    const calls = stubReplayApi({ body: ready() });
    const { user } = await openStreamPage({ endShow: true });
    const video = await waitFor(replayVideo);

    fireEvent.error(video);
    await waitFor(() => expect(replayReads(calls)).toBe(2));
    fireEvent.error(video);
    await waitFor(() => expect(replayReads(calls)).toBe(3));
    fireEvent.error(video);
    expect(await screen.findByRole('alert')).toHaveTextContent('The replay could not be played.');
    expect(replayReads(calls)).toBe(3);

    // The same address again: the element is told to load it anew.
    expect(HTMLMediaElement.prototype.load).toHaveBeenCalledTimes(2);

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(replayReads(calls)).toBe(4));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
