import type { BroadcastState, SourceKind } from './broadcast-media';

/**
 * The sources a live studio used, kept for the tab (sessionStorage survives a reload and a restored
 * crash), so that resuming takes them back in one click. The camera is the default.
 */
const keyOf = (eventId: number) => `stagedoor:studio:${eventId}`;

export function rememberSources(
  eventId: number,
  { camera, screen }: Pick<BroadcastState, 'camera' | 'screen'>,
) {
  const kinds: SourceKind[] = [];
  if (camera) kinds.push('camera');
  if (screen) kinds.push('screen');
  if (kinds.length > 0) sessionStorage.setItem(keyOf(eventId), JSON.stringify(kinds));
}

export function rememberedSources(eventId: number): SourceKind[] {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(keyOf(eventId)) ?? 'null');
    const kinds = Array.isArray(stored)
      ? stored.filter((kind) => kind === 'camera' || kind === 'screen')
      : [];
    return kinds.length > 0 ? kinds : ['camera'];
  } catch {
    return ['camera'];
  }
}
