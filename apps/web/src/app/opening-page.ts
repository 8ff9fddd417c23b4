import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { routes } from '../config/paths';
import { readStoredToken } from '../lib/auth-storage';
import { preloadPage } from '../lib/page-preload';

/** The opening page's first reads, waiting for the app's query cache. */
let pendingReads: ((client: QueryClient) => void) | null = null;

/**
 * The screen the browser opened on, when it is a show's stream page (from a mail, a bookmark, a
 * reload): its code starts loading before React first renders, and its reads (event, settings, socket)
 * as soon as the query cache exists, beside the session check, instead of one after another once the
 * route renders. The code comes in chunks loaded here, so the first screen of every other page carries
 * none of it.
 */
export function startOpeningPage(pathname: string): void {
  const stream = matchPath(routes.eventStream, pathname) ?? matchPath(routes.creatorEventStream, pathname);
  const eventId = stream?.params.id;
  if (!eventId) return;
  preloadPage('stream');
  const reads = import('../features/live/api/stream');
  pendingReads = (client) =>
    void reads
      .then(({ startStreamReads }) => startStreamReads(client, eventId, readStoredToken()))
      .catch(() => undefined);
}

/** Starts the opening page's reads in the app's query cache (once). */
export function startOpeningReads(client: QueryClient): void {
  pendingReads?.(client);
  pendingReads = null;
}
