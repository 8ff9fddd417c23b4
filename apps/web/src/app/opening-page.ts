import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { routes } from '../config/paths';
import { readStoredToken } from '../lib/auth-storage';
import { preloadPage } from '../lib/page-preload';

/**
 * The screen the browser opened on, when it is a show's stream page (from a mail, a bookmark, a
 * reload): its code starts loading before React first renders, and its reads (event, settings, socket)
 * go into the app's query cache as soon as that code is in, beside the session check, instead of one
 * after another once the route renders. The code comes in chunks loaded here, so the first screen of
 * every other page carries none of it. Resolves when the opening screen's code is in (at once for any
 * other page): React renders then (main.tsx).
 */
export async function startOpeningPage(pathname: string, client: QueryClient): Promise<void> {
  const stream = matchPath(routes.eventStream, pathname) ?? matchPath(routes.creatorEventStream, pathname);
  const eventId = stream?.params.id;
  if (!eventId) return;
  import('../features/live/api/stream')
    .then(({ startStreamReads }) => startStreamReads(client, eventId, readStoredToken()))
    .catch(() => undefined);
  await preloadPage('stream');
}
