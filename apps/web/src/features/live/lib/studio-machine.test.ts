import type { ShowSummary } from '@stagedoor/shared/live';
import { describe, expect, it } from 'vitest';
import {
  initialStudioState,
  isOnAir,
  studioReducer,
  type StudioEvent,
  type StudioState,
} from './studio-machine';

const after = (...events: StudioEvent[]): StudioState => events.reduce(studioReducer, initialStudioState);
const step = (state: StudioState, event: StudioEvent) => studioReducer(state, event);

const rehearsing = () => after({ type: 'start', audience: 'rehearsal' }, { type: 'started' });
const live = () => after({ type: 'start', audience: 'public' }, { type: 'started' });
const summary: ShowSummary = {
  startedAt: '2026-11-27T20:00:00.000Z',
  endedAt: '2026-11-27T21:00:00.000Z',
  peakViewers: 3,
  averageViewers: 1.5,
  chatMessages: 4,
  ticketsSold: 9,
};

describe('the studio machine', () => {
  describe('preview', () => {
    it('starts previewing, off air', () => {
      expect(initialStudioState).toMatchObject({ phase: 'preview', audience: null });
      expect(isOnAir(initialStudioState)).toBe(false);
    });

    it('follows the source being opened', () => {
      expect(after({ type: 'openingSource', kind: 'screen' }).pendingSource).toBe('screen');
      expect(
        after({ type: 'openingSource', kind: 'screen' }, { type: 'sourceOpened' }).pendingSource,
      ).toBeNull();
    });

    it('offers to resume what the server says is on air without this page, for its audience', () => {
      expect(after({ type: 'connected', viewerCount: 4, isLive: true, rehearsing: false })).toMatchObject({
        resumable: 'public',
        viewerCount: 4,
      });
      expect(after({ type: 'connected', viewerCount: 0, isLive: false, rehearsing: true }).resumable).toBe(
        'rehearsal',
      );
      expect(
        after({ type: 'connected', viewerCount: 0, isLive: false, rehearsing: false }).resumable,
      ).toBeNull();
    });

    it('stops offering once the server says the stream ended', () => {
      const resumable = after({ type: 'connected', viewerCount: 0, isLive: true, rehearsing: false });
      expect(step(resumable, { type: 'streamEnded' }).resumable).toBeNull();
    });
  });

  describe('starting', () => {
    it('waits for the server, off air, then is live for the audience asked', () => {
      const starting = after({ type: 'start', audience: 'public' });
      expect(starting).toMatchObject({ phase: 'starting', audience: 'public' });
      expect(isOnAir(starting)).toBe(false);
      expect(step(starting, { type: 'started' })).toMatchObject({ phase: 'live', audience: 'public' });
    });

    it('goes back to the preview when the server refuses', () => {
      expect(after({ type: 'start', audience: 'public' }, { type: 'startFailed' })).toMatchObject({
        phase: 'preview',
        audience: null,
      });
    });

    it('clears a resumable stream once this page took it', () => {
      const resumable = after({ type: 'connected', viewerCount: 0, isLive: true, rehearsing: false });
      const resumed = [{ type: 'start', audience: 'public' }, { type: 'started' }] as const;
      expect(resumed.reduce(studioReducer, resumable).resumable).toBeNull();
    });

    it('ignores a start while already live for fans or switching', () => {
      const state = live();
      expect(step(state, { type: 'start', audience: 'rehearsal' })).toBe(state);
      const stopping = step(state, { type: 'stop' });
      expect(step(stopping, { type: 'start', audience: 'public' })).toBe(stopping);
    });
  });

  describe('rehearsing', () => {
    it('is on air for the creator alone', () => {
      expect(rehearsing()).toMatchObject({ phase: 'live', audience: 'rehearsal' });
      expect(isOnAir(rehearsing())).toBe(true);
    });

    it('goes public from the rehearsal, staying on air while the server answers', () => {
      const goingPublic = step(rehearsing(), { type: 'start', audience: 'public' });
      expect(goingPublic).toMatchObject({ phase: 'starting', audience: 'public', startedFrom: 'rehearsal' });
      expect(isOnAir(goingPublic)).toBe(true);
      expect(step(goingPublic, { type: 'started' })).toMatchObject({ phase: 'live', audience: 'public' });
    });

    it('stays in rehearsal when going public is refused', () => {
      const refused = [{ type: 'start', audience: 'public' }, { type: 'startFailed' }] as const;
      expect(refused.reduce(studioReducer, rehearsing())).toMatchObject({
        phase: 'live',
        audience: 'rehearsal',
      });
    });

    it('ends without a summary: fans saw nothing', () => {
      const ended = [{ type: 'stop' }, { type: 'stopped', summary: null }] as const;
      expect(ended.reduce(studioReducer, rehearsing())).toMatchObject({ phase: 'preview', summary: null });
    });
  });

  describe('live', () => {
    it('follows the viewer count', () => {
      expect(step(live(), { type: 'viewerCount', viewerCount: 12 }).viewerCount).toBe(12);
    });

    it('keeps the stream it has across a reconnection, not offering to resume its own show', () => {
      const state = step(live(), { type: 'connected', viewerCount: 2, isLive: true, rehearsing: false });
      expect(state).toMatchObject({ phase: 'live', resumable: null, viewerCount: 2 });
    });

    it('falls back to the preview when a reconnection could not take the stream back', () => {
      expect(step(live(), { type: 'startFailed' })).toMatchObject({ phase: 'preview', audience: null });
    });
  });

  describe('stopping', () => {
    it('stays on air until the server confirms', () => {
      const stopping = step(live(), { type: 'stop' });
      expect(stopping.phase).toBe('stopping');
      expect(isOnAir(stopping)).toBe(true);
    });

    it('stays live when the stop is refused', () => {
      expect(step(step(live(), { type: 'stop' }), { type: 'stopFailed' }).phase).toBe('live');
    });

    it('shows the summary after the show, then a fresh studio', () => {
      const ended = step(step(live(), { type: 'stop' }), { type: 'stopped', summary });
      expect(ended).toMatchObject({ phase: 'summary', summary, audience: null, viewerCount: 0 });
      expect(isOnAir(ended)).toBe(false);
      expect(step(ended, { type: 'dismissSummary' })).toMatchObject({ phase: 'preview', summary: null });
    });

    it('ignores a stop while not live', () => {
      expect(step(initialStudioState, { type: 'stop' })).toBe(initialStudioState);
    });
  });
});
