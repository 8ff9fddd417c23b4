import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Event } from '@stagedoor/shared/events';
import { afterAll, describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  createCreator,
  createEvent,
  eventFormFields,
  postForm,
  type TestAccount,
} from '../../../test/factories';
import { pngWithMetadata } from '../../../test/images';
import { createTestApp } from '../../../test/test-app';

const SITE = 'https://tickets.example';
// The head of apps/web/index.html as Vite builds it: the app's own title and description.
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta
      name="description"
      content="Stagedoor: sell tickets to your live online events and stream them to your fans."
    />
    <title>Stagedoor — Go Live, Get Paid</title>
    <script type="module" crossorigin src="/assets/index-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

const webDist = await mkdtemp(path.join(tmpdir(), 'stagedoor-web-'));
await writeFile(path.join(webDist, 'index.html'), INDEX_HTML);
// What the web build writes beside index.html: the stream page's code (apps/web/scripts/after-build.mjs).
const STREAM_MODULES = ['/assets/event-stream-abc.js', '/assets/live-def.js'];
await writeFile(path.join(webDist, 'page-modules.json'), JSON.stringify({ stream: STREAM_MODULES }));
const app = await createTestApp({ WEB_DIST_DIR: webDist, PUBLIC_URL: SITE });
afterAll(async () => {
  await app.close();
  await rm(webDist, { recursive: true, force: true });
});

/** The page as a browser (Accept: text/html) or a crawler and curl (Accept: *\/*) fetch it. */
async function page(url: string, accept = 'text/html,application/xhtml+xml') {
  const response = await api(app, { method: 'GET', url, headers: { accept } });
  expect(response.statusCode, url).toBe(200);
  expect(response.headers['content-type']).toContain('text/html');
  expect(response.headers['cache-control']).toBe('no-cache');
  return response.body;
}

/** Every `<meta name|property="…" content="…">` of the page, content as written (still escaped). */
function metaTags(html: string): Record<string, string> {
  const tags = html.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)"/g);
  return Object.fromEntries([...tags].map(([, key = '', content = '']) => [key, content]));
}

const titles = (html: string) => [...html.matchAll(/<title>([^<]*)<\/title>/g)].map(([, title]) => title);

async function eventWithPoster(creator: TestAccount, overrides: Record<string, unknown>): Promise<Event> {
  const response = await postForm(app, '/api/events', creator.token, eventFormFields(overrides), {
    image: { data: await pngWithMetadata(), filename: 'poster.png', type: 'image/png' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Event>();
}

describe("an event page's HTML", () => {
  it('carries the event title, a description and the absolute poster URL, every value escaped', async () => {
    const creator = await createCreator(app, { firstName: 'Nina', lastName: 'Host' });
    const event = await eventWithPoster(creator, {
      name: 'Rock & "Roll" <Live>',
      description: "Loud. </script><script>alert('x')</script>",
      price: 12.5,
      date: '2031-06-14T18:00:00.000Z',
    });

    const html = await page(`/events/${event.id}`);

    expect(titles(html)).toEqual(['Rock &amp; &quot;Roll&quot; &lt;Live&gt; · Stagedoor']);
    const poster = `${SITE}/api/events/image/${event.image}`;
    expect(metaTags(html)).toEqual({
      description:
        'Sat, Jun 14, 2031, 6:00 PM UTC · $12.50 · Live with Nina Host. Loud. &lt;/script&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;',
      'og:site_name': 'Stagedoor',
      'og:type': 'website',
      'og:title': 'Rock &amp; &quot;Roll&quot; &lt;Live&gt;',
      'og:description':
        'Sat, Jun 14, 2031, 6:00 PM UTC · $12.50 · Live with Nina Host. Loud. &lt;/script&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;',
      'og:url': `${SITE}/events/${event.id}`,
      'og:image': poster,
      'twitter:card': 'summary_large_image',
    });
    expect(html).not.toContain('<Live>');
    expect(html).toContain('<script type="module" crossorigin src="/assets/index-abc123.js"></script>');
    // The poster URL answers with the image itself.
    const image = await api(app, { method: 'GET', url: poster.slice(SITE.length) });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
  });

  it('is served to crawlers and curl, which accept anything, and without a poster is a small card', async () => {
    const event = await createEvent(app, await createCreator(app), { name: 'Poster-less night' });

    const html = await page(`/events/${event.id}`, '*/*');

    expect(titles(html)).toEqual(['Poster-less night · Stagedoor']);
    expect(metaTags(html)).toMatchObject({ 'og:title': 'Poster-less night', 'twitter:card': 'summary' });
    expect(metaTags(html)['og:image']).toBeUndefined();
  });
});

describe("a creator page's HTML", () => {
  it('carries the creator name, biography and absolute profile picture, under the canonical nickname', async () => {
    const creator = await createCreator(app, { firstName: 'Zoë', lastName: 'Brontë' });
    const bio = await api(app, {
      method: 'PATCH',
      url: '/api/auth/profile/creator',
      headers: authHeader(creator.token),
      payload: { biography: 'Poems, read live.' },
    });
    expect(bio.statusCode, bio.body).toBe(200);
    const uploaded = await postForm(
      app,
      '/api/auth/profile/creator/profile-image',
      creator.token,
      {},
      {
        profileImageUrl: { data: await pngWithMetadata(), filename: 'me.png', type: 'image/png' },
      },
    );
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const { profileImageUrl } = uploaded.json<{ profileImageUrl: string }>();

    const html = await page(`/creator/${creator.user.nickname.toUpperCase()}`);

    expect(titles(html)).toEqual(['Zoë Brontë · Stagedoor']);
    expect(metaTags(html)).toMatchObject({
      description: 'Poems, read live.',
      'og:type': 'profile',
      'og:title': 'Zoë Brontë',
      'og:url': `${SITE}/creator/${creator.user.nickname}`,
      'og:image': `${SITE}/api/creators/profile-image/${profileImageUrl}`,
      'twitter:card': 'summary_large_image',
    });
  });
});

describe('a page without a preview', () => {
  it.each([
    ['an unknown event', '/events/999999'],
    ['an id that is no id', '/events/abc'],
    ['an unknown creator', '/creator/nobody-here'],
    ['another page', '/events'],
    ["an event's checkout", '/events/1/checkout'],
  ])('%s gets the app as built, with its own title', async (_, url) => {
    const html = await page(url);
    expect(html).toBe(INDEX_HTML);
  });
});

describe('the stream page', () => {
  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)" \/>/g)].map(([, href]) => href);

  it("names its code in the head, for the fan's page and the creator's studio, so it loads with the app", async () => {
    for (const url of ['/events/12/stream', '/creators/dashboard/events/12/stream']) {
      const html = await page(url);
      expect(preloads(html), url).toEqual(STREAM_MODULES);
      expect(html.indexOf('modulepreload'), url).toBeLessThan(html.indexOf('</head>'));
    }
  });

  it('names nothing on other pages, or on paths that only look like it', async () => {
    for (const url of ['/', '/events', '/events/12', '/events/12/stream/extra', '/x/events/12/stream']) {
      expect(preloads(await page(url)), url).toEqual([]);
    }
  });
});
