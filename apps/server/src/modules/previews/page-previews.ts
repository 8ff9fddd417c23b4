import { ZNicknameParams } from '@stagedoor/shared/creators';
import { ZEventIdParams, type Event } from '@stagedoor/shared/events';
import { imageUrls } from '@stagedoor/shared/images';
import type { Deps } from '../../deps';
import { hasCode } from '../../errors';
import type { AccountRow } from '../accounts/accounts.tables';
import { SITE_NAME, type PagePreview } from '../../plugins/page-head';
import { findCreatorByNickname } from '../creators/creators.service';
import { getEvent } from '../events/events.service';

const DESCRIPTION_MAX_LENGTH = 200;

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
    image: event.image && `${origin}${imageUrls.event(event.image)}`,
    url: `${origin}/events/${event.id}`,
    type: 'website',
  };
}

function creatorPreview(creator: AccountRow, origin: string): PagePreview {
  const name = `${creator.firstName} ${creator.lastName}`;
  const image = creator.profileImage
    ? `${origin}${imageUrls.profile('creator', creator.profileImage)}`
    : creator.headerImage && `${origin}${imageUrls.creatorHeader(creator.headerImage)}`;
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
