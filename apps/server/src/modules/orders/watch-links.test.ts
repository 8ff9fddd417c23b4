import type { WatchLinkResponse } from '@stagedoor/shared/accounts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  type TestAccount,
} from '../../../test/factories';
import { appWithMailbox, watchTokenIn } from '../../../test/mailbox';
import { events, outbox, watchLinks } from '../../db/schema';
import { queueLiveNow, runMail } from './reminders';
import { WATCH_LINK_AFTER_SHOW_MS } from './watch-links';

const { app, mailTo } = await appWithMailbox();

const HOUR_MS = 3_600_000;
const INVALID = 'This watch link is invalid or has expired. Log in to watch with your account.';

/** The watch link's token in the last message of `subject` mailed to the account. */
const watchTokenTo = async (account: TestAccount, subject: string) =>
  watchTokenIn(await mailTo(account.email, subject));

const openLink = (token: unknown, remoteAddress?: string) =>
  api(app, {
    method: 'POST',
    url: '/api/auth/watch-link',
    payload: { token },
    ...(remoteAddress ? { remoteAddress } : {}),
  });

async function showWithFan(hoursAhead = 72) {
  const creator = await createCreator(app);
  const event = await createEvent(app, creator, {
    name: 'Night Show',
    date: new Date(Date.now() + hoursAhead * HOUR_MS).toISOString(),
  });
  const fan = await createUser(app);
  const order = await buyTicketsOk(app, fan, event.id, 1);
  return { creator, event, fan, order };
}

describe('watch links', () => {
  it("sign the receipt's reader in, as a login would, and name the show; only the hash is kept", async () => {
    const { event, fan } = await showWithFan();
    const token = await watchTokenTo(fan, 'Your tickets for Night Show');
    expect(token.length).toBeGreaterThanOrEqual(43);

    const opened = await openLink(token);
    expect(opened.statusCode, opened.body).toBe(200);
    const session = opened.json<WatchLinkResponse>();
    expect(session.eventId).toBe(event.id);
    expect(session.user).toMatchObject({ id: fan.user.id, email: fan.email });
    const summary = await api(app, {
      method: 'GET',
      url: `/api/orders/summary?eventId=${event.id}`,
      headers: authHeader(session.access_token),
    });
    expect(summary.json()).toMatchObject({ tickets: 1 });
    // The link keeps working until it is revoked or stale: the fan may open it on each screen.
    expect((await openLink(token)).statusCode).toBe(200);

    const stored = await app.deps.db.select().from(watchLinks);
    expect(JSON.stringify(stored)).not.toContain(token);
    const sent = await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'receipt'));
    expect(JSON.stringify(sent)).not.toContain(token);
  });

  it('come in the hour-before reminder and the "live now" mail too, each working', async () => {
    const { event, fan } = await showWithFan(2);
    await runMail(app.deps, new Date(Date.now() + 70 * 60_000));
    const reminder = await watchTokenTo(fan, 'Night Show starts in an hour');
    await queueLiveNow(app.deps.db, event.id);
    const liveNow = await watchTokenTo(fan, 'Night Show is live now');
    for (const token of [reminder, liveNow]) {
      const opened = await openLink(token);
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json<WatchLinkResponse>()).toMatchObject({
        eventId: event.id,
        user: { id: fan.user.id },
      });
    }
  });

  it('stop working when the order is refunded', async () => {
    const { creator, event, fan } = await showWithFan();
    const token = await watchTokenTo(fan, 'Your tickets for Night Show');
    const cancelled = await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}/cancel`,
      headers: authHeader(creator.token),
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const refused = await openLink(token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ fields: { token: INVALID } });
  });

  it(`stop working ${WATCH_LINK_AFTER_SHOW_MS / (24 * HOUR_MS)} days after the show`, async () => {
    const { event, fan } = await showWithFan();
    const token = await watchTokenTo(fan, 'Your tickets for Night Show');
    const moveShow = (msAgo: number) =>
      app.deps.db
        .update(events)
        .set({ date: new Date(Date.now() - msAgo) })
        .where(eq(events.id, event.id));
    await moveShow(WATCH_LINK_AFTER_SHOW_MS - HOUR_MS);
    expect((await openLink(token)).statusCode).toBe(200);
    await moveShow(WATCH_LINK_AFTER_SHOW_MS + HOUR_MS);
    expect((await openLink(token)).json()).toMatchObject({ fields: { token: INVALID } });
  });

  it('refuse forged, malformed and huge tokens, saying which field, and a client that keeps trying', async () => {
    const { fan } = await showWithFan();
    const real = await watchTokenTo(fan, 'Your tickets for Night Show');
    // One character off, the same length: unknown.
    const forged = `${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`;
    expect((await openLink(forged)).json()).toMatchObject({ fields: { token: INVALID } });
    for (const [token, message] of [
      ['', 'Token is required'],
      ['x'.repeat(201), 'Token is too long'],
      [{ $ne: null }, expect.any(String)],
      [undefined, 'Token is required'],
    ] as const) {
      const refused = await openLink(token);
      expect(refused.statusCode, JSON.stringify(token)).toBe(400);
      expect(refused.json()).toMatchObject({ fields: { token: message } });
    }
    const huge = await api(app, {
      method: 'POST',
      url: '/api/auth/watch-link',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ token: 'x'.repeat(2_000_000) }),
    });
    expect(huge.statusCode).toBe(413);

    // One client guessing: 20 tries a minute (AUTH_RATE_LIMIT_PER_MINUTE), then 429, even for a real link.
    const client = '203.0.113.77';
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, index) => openLink(`guess-${index}`, client)),
    );
    expect(answers.filter((answer) => answer.statusCode === 400)).toHaveLength(20);
    expect(answers.filter((answer) => answer.statusCode === 429)).toHaveLength(5);
    expect((await openLink(real, client)).statusCode).toBe(429);
    expect((await openLink(real)).statusCode).toBe(200);
  });
});
