/**
 * What the broadcaster and a viewer agree on inside their peer connection, beside the server's signalling.
 *
 * Every offer carries the same three media sections, in this order: the main picture, the camera overlay
 * and the sound. The broadcaster swaps what each one carries with `replaceTrack` (screen or camera as
 * main, camera as overlay or nothing), so a change of source needs no new offer and viewers keep
 * playing when a screen share ends. A negotiated data channel (same id on both sides, so neither waits
 * for the other to announce it) says whether the overlay is on; a viewer cannot tell an idle track from
 * a paused one by itself.
 */

/** The tracks a broadcast sends; null leaves that section silent. */
export type BroadcastLayout = {
  main: MediaStreamTrack | null;
  overlay: MediaStreamTrack | null;
  audio: MediaStreamTrack | null;
};

export const EMPTY_LAYOUT: BroadcastLayout = { main: null, overlay: null, audio: null };

/** Video sections of an offer, in order. */
export const VIDEO_SECTIONS = ['main', 'overlay'] as const;

export const LAYOUT_CHANNEL: { label: string; init: RTCDataChannelInit } = {
  label: 'layout',
  init: { negotiated: true, id: 0 },
};

export type LayoutMessage = { overlay: boolean };

export function encodeLayout(layout: BroadcastLayout): string {
  const message: LayoutMessage = { overlay: layout.overlay !== null };
  return JSON.stringify(message);
}

/** The layout a channel message announces, or null for anything else. */
export function decodeLayout(data: unknown): LayoutMessage | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed: unknown = JSON.parse(data);
    return typeof parsed === 'object' &&
      parsed !== null &&
      'overlay' in parsed &&
      typeof parsed.overlay === 'boolean'
      ? { overlay: parsed.overlay }
      : null;
  } catch {
    return null;
  }
}

/** The plain copy of a description or candidate that travels through the server. */
export function toSessionDescription({ type, sdp }: RTCSessionDescriptionInit) {
  return { type, sdp };
}
