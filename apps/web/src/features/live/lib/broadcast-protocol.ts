/**
 * What the broadcaster and a viewer agree on inside their peer connection, beside the server's signalling.
 *
 * Every offer carries the same three media sections, in this order: the main picture, the camera overlay
 * and the sound. The broadcaster swaps what each one carries with `replaceTrack` (screen or camera as
 * main, camera as overlay or nothing), so a change of source needs no new offer and viewers keep
 * playing when a screen share ends. Whether the overlay is on travels over the socket (`streamLayout`):
 * a viewer cannot tell an idle track from a paused one by itself, and Janus relays the same three
 * sections in the same order, so both media modes share this protocol (decisions 0015 and 0017).
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

/** The plain copy of a description or candidate that travels through the server. */
export function toSessionDescription({ type, sdp }: RTCSessionDescriptionInit) {
  return { type, sdp };
}
