import { VIEWER_RETRY_MS, WAITING_FOR_STREAM_RETRY_MS } from '@stagedoor/shared/limits';
import { describe, expect, it } from 'vitest';
import { initialViewerState, viewerReducer, type ViewerEvent, type ViewerState } from './viewer-machine';

/** The state after `events`, from the page's first one. */
const after = (...events: ViewerEvent[]): ViewerState => events.reduce(viewerReducer, initialViewerState);

const playing = (): ViewerState =>
  after({ type: 'joined', viewerCount: 2 }, { type: 'offer' }, { type: 'picture' });
const waiting = (): ViewerState => after({ type: 'notLive' });

describe('the viewer machine', () => {
  describe('connecting', () => {
    it('starts connecting, with nothing on screen and nothing scheduled', () => {
      expect(initialViewerState).toMatchObject({
        phase: 'connecting',
        picture: 'none',
        rejoin: null,
        dropped: 0,
      });
    });

    it('is in once the server answers the join, taking its count', () => {
      expect(after({ type: 'joined', viewerCount: 3 })).toMatchObject({
        phase: 'connecting',
        viewerCount: 3,
      });
    });

    it('waits, joining again in 20 s, when nothing is live', () => {
      expect(waiting()).toMatchObject({
        phase: 'waiting',
        message: 'Waiting for stream to start',
        rejoin: { inMs: WAITING_FOR_STREAM_RETRY_MS },
      });
    });

    it('retries in 5 s when the join fails or the offer cannot be answered, giving up the connection', () => {
      for (const [event, message] of [
        [{ type: 'joinFailed' }, 'Error joining stream'],
        [{ type: 'offerFailed' }, 'Error establishing connection with stream'],
      ] as const) {
        const state = after({ type: 'joined', viewerCount: 1 }, { type: 'offer' }, event);
        expect(state).toMatchObject({
          phase: 'retrying',
          message,
          rejoin: { inMs: VIEWER_RETRY_MS },
          dropped: 1,
        });
      }
    });

    it('is refused for good, with the reason, and schedules nothing', () => {
      const state = after({
        type: 'refused',
        code: 'TICKET_REFUNDED',
        reason: 'Your ticket for this show was refunded',
      });
      expect(state).toMatchObject({
        phase: 'refused',
        refusal: { code: 'TICKET_REFUNDED', reason: 'Your ticket for this show was refunded' },
        rejoin: null,
      });
    });

    it('calls off a pending join when an offer arrives', () => {
      const retrying = after({ type: 'joinFailed' });
      expect(retrying.rejoin).not.toBeNull();
      expect(viewerReducer(retrying, { type: 'offer' }).rejoin).toBeNull();
    });
  });

  describe('waiting', () => {
    it('joins at once when the server says the show started', () => {
      expect(viewerReducer(waiting(), { type: 'streamStarted' }).rejoin).toEqual({ inMs: 0 });
    });

    it('ignores a start it is not waiting for', () => {
      const state = playing();
      expect(viewerReducer(state, { type: 'streamStarted' })).toBe(state);
    });
  });

  describe('playing', () => {
    it('plays once the connection has a picture', () => {
      expect(playing()).toMatchObject({ phase: 'playing', picture: 'live', message: null, viewerCount: 2 });
    });

    it('keeps playing when a late join answer comes after the picture', () => {
      const state = viewerReducer(playing(), { type: 'joined', viewerCount: 5 });
      expect(state).toMatchObject({ phase: 'playing', viewerCount: 5 });
    });

    it('keeps the last frame when the connection on screen is lost, and joins again in 5 s', () => {
      const state = viewerReducer(playing(), { type: 'connectionLost', wasShown: true });
      expect(state).toMatchObject({
        phase: 'retrying',
        message: 'Connection lost. Trying to reconnect...',
        picture: 'frozen',
        rejoin: { inMs: VIEWER_RETRY_MS },
        dropped: 0,
      });
    });

    it('gives up a connection lost before it showed anything', () => {
      const state = after({ type: 'offer' }, { type: 'connectionLost', wasShown: false });
      expect(state).toMatchObject({ phase: 'retrying', picture: 'none', dropped: 1 });
    });

    it('tells the viewer the creator is reconnecting, over the picture, until they are back', () => {
      const reconnecting = viewerReducer(playing(), { type: 'creatorReconnecting' });
      expect(reconnecting).toMatchObject({ phase: 'playing', picture: 'live', creatorReconnecting: true });
      const frozen = viewerReducer(reconnecting, { type: 'connectionLost', wasShown: true });
      expect(frozen).toMatchObject({ picture: 'frozen', creatorReconnecting: true });
      // Back: by the server's word, or by the new connection's picture.
      expect(viewerReducer(frozen, { type: 'creatorResumed' }).creatorReconnecting).toBe(false);
      expect(viewerReducer(frozen, { type: 'picture' })).toMatchObject({
        phase: 'playing',
        picture: 'live',
        creatorReconnecting: false,
      });
    });

    it('says nothing of a reconnecting creator with no picture to explain', () => {
      const state = waiting();
      expect(viewerReducer(state, { type: 'creatorReconnecting' })).toBe(state);
    });

    it('follows the count and the layout', () => {
      const state = after({ type: 'viewerCount', viewerCount: 9 }, { type: 'layout', overlay: true });
      expect(state).toMatchObject({ viewerCount: 9, overlay: true });
    });
  });

  describe('the end', () => {
    it('ends for good when the creator stops, giving up the connection', () => {
      const state = viewerReducer(playing(), { type: 'streamEnded', reason: 'stopped' });
      expect(state).toMatchObject({ phase: 'ended', picture: 'none', rejoin: null, dropped: 1 });
    });

    it('plays again by itself should the creator go live again', () => {
      const ended = viewerReducer(playing(), { type: 'streamEnded', reason: 'stopped' });
      expect(viewerReducer(ended, { type: 'streamStarted' }).rejoin).toEqual({ inMs: 0 });
    });

    it('joins again in 5 s when the broadcaster was lost', () => {
      const state = viewerReducer(playing(), { type: 'streamEnded', reason: 'lost' });
      expect(state).toMatchObject({
        phase: 'retrying',
        message: 'Stream has ended. Trying to reconnect...',
        picture: 'none',
        rejoin: { inMs: VIEWER_RETRY_MS },
      });
    });
  });

  it('schedules each join as a new one, even with the same delay', () => {
    const once = after({ type: 'joinFailed' });
    const twice = viewerReducer(once, { type: 'joinFailed' });
    expect(twice.rejoin).toEqual(once.rejoin);
    expect(twice.rejoin).not.toBe(once.rejoin);
    expect(twice.dropped).toBe(2);
  });
});
