import { ZNicknameParams } from '@stagedoor/shared/creators';
import { ZEventIdParams, type Event } from '@stagedoor/shared/events';
import type { Deps } from '../deps';
import { hasCode } from '../errors';
import type { AccountRow } from '../db/schema';
import { findCreatorByNickname } from '../modules/creators/creators.service';
import { getEvent } from '../modules/events/events.service';

const SITE_NAME = 'Stagedoor';
const DESCRIPTION_MAX_LENGTH = 200;

/** What a shared link unfurls into: the page's title, a line about it and its picture. */
export interface PagePreview {
  title: string;
  description: string;
  /** Absolute, as social networks fetch it from elsewhere; null when the page has no picture. */
  image: string | null;
  /** The page's canonical absolute address. */
  url: string;
  type: 'website' | 'profile';
}

const EVENT_PAGE = /^\/events\/([^/]+)\/?$/;
const CREATOR_PAGE = /^\/creator\/([^/]+)\/?$/;

/**
 * The preview of the page at `path` (an event's or a creator's), or null for any other page and for an
 * event or creator that does not exist: the app then shows its own 404.
 */
export async function previewOf(
  deps: Pick<Deps, 'db'>,
  path: string,
  origin: string,
): Promise<PagePreview | null> {
  const eventId = ZEventIdParams.safeParse({ id: EVENT_PAGE.exec(path)?.[1] });
  const nickname = ZNicknameParams.safeParse({ nickname: decoded(CREATOR_PAGE.exec(path)?.[1]) });
  try {
    if (eventId.success) return eventPreview(await getEvent(deps, eventId.data.id), origin);
    if (nickname.success) {
      return creatorPreview(await findCreatorByNickname(deps, nickname.data.nickname), origin);
    }
    return null;
  } catch (error) {
    if (hasCode('NOT_FOUND')(error)) return null;
    throw error;
  }
}

function decoded(segment: string | undefined): string | undefined {
  try {
    return segment === undefined ? undefined : decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function eventPreview(event: Event, origin: string): PagePreview {
  // The show's time where its creator is, as the creator announced it.
  const when = new Intl.DateTimeFormat('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: event.creator.timeZone,
    timeZoneName: 'short',
  }).format(new Date(event.date));
  const price = event.price === 0 ? 'Free' : `$${event.price.toFixed(2)}`;
  const by = `${event.creator.firstName} ${event.creator.lastName}`;
  return {
    title: event.name,
    description: shortened(`${when} · ${price} · Live with ${by}. ${event.description}`),
    image: event.image && `${origin}/api/events/image/${encodeURIComponent(event.image)}`,
    url: `${origin}/events/${event.id}`,
    type: 'website',
  };
}

function creatorPreview(creator: AccountRow, origin: string): PagePreview {
  const name = `${creator.firstName} ${creator.lastName}`;
  const image = creator.profileImage
    ? `${origin}/api/creators/profile-image/${encodeURIComponent(creator.profileImage)}`
    : creator.headerImage && `${origin}/api/creators/header-image/${encodeURIComponent(creator.headerImage)}`;
  return {
    title: name,
    description: shortened(creator.biography || `Live shows by ${name} on ${SITE_NAME}.`),
    image,
    url: `${origin}/creator/${encodeURIComponent(creator.nickname)}`,
    type: 'profile',
  };
}

function shortened(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length <= DESCRIPTION_MAX_LENGTH
    ? oneLine
    : `${oneLine.slice(0, DESCRIPTION_MAX_LENGTH - 1)}…`;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);

/**
 * index.html with the preview's tags in its head, in place of the app's own title and description:
 * crawlers read this HTML and never run the app.
 */
export function withPreview(html: string, preview: PagePreview): string {
  const meta = (key: 'name' | 'property', name: string, content: string) =>
    `<meta ${key}="${name}" content="${escapeHtml(content)}" />`;
  const tags = [
    `<title>${escapeHtml(`${preview.title} · ${SITE_NAME}`)}</title>`,
    meta('name', 'description', preview.description),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:type', preview.type),
    meta('property', 'og:title', preview.title),
    meta('property', 'og:description', preview.description),
    meta('property', 'og:url', preview.url),
    ...(preview.image ? [meta('property', 'og:image', preview.image)] : []),
    meta('name', 'twitter:card', preview.image ? 'summary_large_image' : 'summary'),
  ];
  return html
    .replace(/<title>[\s\S]*?<\/title>/i, '')
    .replace(/<meta\s+name="description"[^>]*>/i, '')
    .replace(/<\/head>/i, () => `${tags.join('\n')}\n</head>`);
}
