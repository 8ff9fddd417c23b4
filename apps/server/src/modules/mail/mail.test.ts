import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import type { AuthResponse } from '@stagedoor/shared/accounts';
import { eq } from 'drizzle-orm';
import ical from 'node-ical';
import type { ErrorBody } from '@stagedoor/shared/errors';
import { afterAll, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import {
  api,
  authHeader,
  buyTicketsOk,
  createCreator,
  createEvent,
  createUser,
  type TestAccount,
} from '../../../test/factories';
import { percentile } from '../../../test/flood';
import { startSmtpServer } from '../../../test/smtp-server';
import { createTestApp, sameDeploymentAs } from '../../../test/test-app';
import type { App } from '../../app';
import { accounts, outbox, passwordResets } from '../../db/schema';
import { renderMail } from './messages';
import type { MailKind } from './outbox';
import { runMail } from '../orders/reminders';
import { mailLinks, sendDueMail } from './worker';

const smtp = await startSmtpServer();
/** Mail settings of every app here: the worker's timer never fires, the tests run it. */
const MAIL_ENV = { SMTP_URL: smtp.url, MAIL_INTERVAL_MS: '2147483647' };

/** On PGlite a database on disk, so that a second app can open it after the first is gone. */
async function firstApp(): Promise<App> {
  if (inject('databaseDriver') === 'postgres') return createTestApp(MAIL_ENV);
  const dataDir = await mkdtemp(path.join(inject('tempRoot'), 'mail-'));
  return createTestApp({ ...MAIL_ENV, DATA_DIR: dataDir, DATABASE_URL: '' });
}

/** The same deployment started again (PostgreSQL: another instance; PGlite: the same files). */
async function restartOf(app: App, { close }: { close: boolean }): Promise<App> {
  if (inject('databaseDriver') === 'postgres')
    return createTestApp({ ...MAIL_ENV, ...sameDeploymentAs(app) });
  if (!close) throw new Error('PGlite opens its files in one app at a time');
  const { dataDir, jwtSecret } = app.deps.config;
  await app.close();
  return createTestApp({
    ...MAIL_ENV,
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    JWT_SECRET: new TextDecoder().decode(jwtSecret),
  });
}

let app = await firstApp();
afterAll(async () => {
  await app.close();
  await smtp.close();
});
beforeEach(async () => {
  // Each test starts with nothing queued (registrations of earlier tests queued welcomes).
  await runMail(app.deps, new Date());
  smtp.received.length = 0;
  smtp.refusing = false;
});

const HOUR_MS = 3_600_000;
const to = (account: TestAccount) => account.email;
const sentTo = (account: TestAccount) =>
  smtp.received.filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.text === to(account));

describe('mail', () => {
  it('sends one receipt per purchase, with the show in the buyer’s time zone and a valid calendar invitation', async () => {
    const creator = await createCreator(app, { firstName: 'Maya', lastName: 'Rivers' });
    const date = new Date(Math.floor(Date.now() / 1000) * 1000 + 3 * 24 * HOUR_MS);
    const event = await createEvent(app, creator, {
      name: 'Rooftop Session',
      price: 12.5,
      date: date.toISOString(),
    });
    const fan = await createUser(app);
    await app.deps.db.update(accounts).set({ timeZone: 'Asia/Tokyo' }).where(eq(accounts.id, fan.user.id));
    const order = await buyTicketsOk(app, fan, event.id, 2);

    await runMail(app.deps, new Date());
    await runMail(app.deps, new Date());
    const receipts = sentTo(fan).filter((mail) => mail.subject === 'Your tickets for Rooftop Session');
    expect(receipts).toHaveLength(1);
    const [receipt] = receipts;
    expect(receipt?.text).toContain(`Order #${order.id}: 2 tickets, $25.00 in total.`);
    const tokyo = new Intl.DateTimeFormat('en-US', {
      weekday: 'long',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      timeZone: 'Asia/Tokyo',
      timeZoneName: 'short',
    }).format(date);
    expect(receipt?.text).toContain(tokyo);
    expect(receipt?.text).toMatch(
      new RegExp(`Watch: http://localhost:${app.deps.config.port}/watch/[A-Za-z0-9_-]{43}$`),
    );
    expect(receipt?.html).toContain('Stagedoor');

    const invitation = receipt?.attachments.find((attachment) => attachment.contentType === 'text/calendar');
    const calendar = invitation?.content.toString('utf8') ?? '';
    expect(calendar).toMatch(/^DTSTART:\d{8}T\d{6}Z\r$/m);
    const [show] = Object.values(ical.sync.parseICS(calendar)).filter(
      (entry) => entry?.type === 'VEVENT',
    ) as ical.VEvent[];
    expect(show?.start.toISOString()).toBe(date.toISOString());
    expect(show?.summary).toBe('Rooftop Session');
  });

  it('welcomes a new account and tells its owner when the password changes', async () => {
    const fan = await createUser(app);
    const changed = await api(app, {
      method: 'POST',
      url: '/api/auth/change-password',
      headers: authHeader(fan.token),
      payload: { currentPassword: fan.password, newPassword: 'another-long-password' },
    });
    expect(changed.statusCode).toBe(200);
    await runMail(app.deps, new Date());
    expect(
      sentTo(fan)
        .map((mail) => mail.subject)
        .sort(),
    ).toEqual(['Welcome to Stagedoor, Test', 'Your Stagedoor password was changed']);
  });

  it('tells every buyer of a cancelled event about their refund', async () => {
    const creator = await createCreator(app);
    const event = await createEvent(app, creator, { name: 'Rained Out', price: 10 });
    const fan = await createUser(app);
    await buyTicketsOk(app, fan, event.id, 1);
    await api(app, {
      method: 'POST',
      url: `/api/events/${event.id}/cancel`,
      headers: authHeader(creator.token),
    });
    await runMail(app.deps, new Date());
    const refund = sentTo(fan).find((mail) => mail.subject === 'Refund for Rained Out');
    expect(refund?.text).toContain('was cancelled by its creator');
    expect(refund?.text).toContain('$10.00');
  });

  it('loses nothing when the server stops between queueing and sending: the next one sends it', async () => {
    const fan = await createUser(app);
    const event = await createEvent(app, await createCreator(app), { name: 'After the Crash' });
    await buyTicketsOk(app, fan, event.id, 1);
    // A worker that leased the receipt and died before sending it.
    const now = new Date();
    await app.deps.db
      .update(outbox)
      .set({ nextAttemptAt: new Date(now.getTime() + 5 * 60_000), attempts: 1 })
      .where(eq(outbox.key, `receipt:order:${(await buyTicketsOk(app, fan, event.id, 1)).id}`));
    app = await restartOf(app, { close: true });
    await runMail(app.deps, now);
    expect(sentTo(fan).filter((mail) => mail.subject === 'Your tickets for After the Crash')).toHaveLength(1);
    // Its lease runs out: the other receipt goes too.
    await runMail(app.deps, new Date(now.getTime() + 6 * 60_000));
    expect(sentTo(fan).filter((mail) => mail.subject === 'Your tickets for After the Crash')).toHaveLength(2);
  });

  it('retries through an SMTP outage, later and later', async () => {
    const fan = await createUser(app);
    smtp.refusing = true;
    const now = new Date();
    expect(await runMail(app.deps, now)).toBe(0);
    const [queued] = await app.deps.db
      .select()
      .from(outbox)
      .where(eq(outbox.key, `welcome:account:${fan.user.id}`));
    expect(queued).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: expect.stringContaining('421'),
    });
    smtp.refusing = false;
    expect(await runMail(app.deps, new Date(now.getTime() + 10_000))).toBe(0);
    expect(await runMail(app.deps, new Date(now.getTime() + 31_000))).toBe(1);
    expect(sentTo(fan).map((mail) => mail.subject)).toEqual(['Welcome to Stagedoor, Test']);
  });

  it('reminds ticket holders a day and an hour before, once each, until they turn reminders off', async () => {
    const now = new Date();
    const date = new Date(now.getTime() + 48 * HOUR_MS);
    const event = await createEvent(app, await createCreator(app), {
      name: 'Late Show',
      date: date.toISOString(),
    });
    const fan = await createUser(app);
    const quiet = await createUser(app);
    await buyTicketsOk(app, fan, event.id, 1);
    await buyTicketsOk(app, quiet, event.id, 1);
    const subjects = (account: TestAccount) => sentTo(account).map((mail) => mail.subject);

    await runMail(app.deps, now);
    expect(subjects(fan)).not.toContain('Late Show is tomorrow');
    await runMail(app.deps, new Date(date.getTime() - 23 * HOUR_MS));
    await runMail(app.deps, new Date(date.getTime() - 22 * HOUR_MS));
    expect(subjects(fan).filter((subject) => subject === 'Late Show is tomorrow')).toHaveLength(1);

    // The quiet fan follows the link in the reminder.
    const reminder = sentTo(quiet).find((mail) => mail.subject === 'Late Show is tomorrow');
    const link =
      /http:\/\/localhost:\d+(\/api\/mail\/reminders-off\?\S+)/.exec(reminder?.text ?? '')?.[1] ?? '';
    expect((await api(app, { method: 'GET', url: link })).body).toContain('Turn reminders off');
    expect((await api(app, { method: 'POST', url: `${link}x` })).statusCode).toBe(403);
    expect((await api(app, { method: 'POST', url: link })).body).toContain('Reminders are off');

    await runMail(app.deps, new Date(date.getTime() - 50 * 60_000));
    expect(subjects(fan).filter((subject) => subject === 'Late Show starts in an hour')).toHaveLength(1);
    expect(subjects(quiet)).not.toContain('Late Show starts in an hour');
    expect(mailLinks(app.deps).siteUrl).toBe(`http://localhost:${app.deps.config.port}`);
  });
});

/**
 * A worker without the lease, for the control: read what is queued, send it, mark it sent. Two of them
 * read the same rows before either marks them.
 */
async function sendWithoutLease(target: App): Promise<void> {
  const due = await target.deps.db.select().from(outbox).where(eq(outbox.status, 'queued'));
  for (const row of due) {
    await target.deps.sendMail(
      row.toAddress,
      renderMail(row.kind as MailKind, row.data, mailLinks(target.deps)),
      'x@example.test',
    );
    await target.deps.db.update(outbox).set({ status: 'sent' }).where(eq(outbox.id, row.id));
  }
}

describe('two workers at once', () => {
  it('control: without the lease, two workers send the same messages twice', async () => {
    const fans = await Promise.all(Array.from({ length: 6 }, () => createUser(app)));
    await Promise.all([sendWithoutLease(app), sendWithoutLease(app)]);
    const twice = fans.filter((fan) => sentTo(fan).length > 1);
    expect(twice.length).toBeGreaterThan(0);
  });

  it('never send one message twice', async () => {
    const fans = await Promise.all(Array.from({ length: 12 }, () => createUser(app)));
    const other = await restartOf(app, { close: inject('databaseDriver') !== 'postgres' });
    if (inject('databaseDriver') !== 'postgres') app = other;
    try {
      const workers =
        inject('databaseDriver') === 'postgres' ? [app, other, app, other] : [app, app, app, app];
      await Promise.all(workers.map((worker) => sendDueMail(worker.deps, new Date())));
      for (const fan of fans) expect(sentTo(fan)).toHaveLength(1);
    } finally {
      if (other !== app) await other.close();
    }
  });
});

describe('forgotten password', () => {
  const forgot = (email: string, on: App = app) =>
    api(on, { method: 'POST', url: '/api/auth/forgot-password', payload: { email } });
  const reset = (token: string, password: string) =>
    api(app, { method: 'POST', url: '/api/auth/reset-password', payload: { token, password } });
  const checkLink = (token: string) =>
    api(app, { method: 'POST', url: '/api/auth/reset-password/check', payload: { token } });
  const INVALID_LINK = { token: 'This reset link is invalid or has expired. Ask for a new one.' };

  /**
   * The token of the reset link mailed to `fan` after `earlier` links: the request is answered before
   * the link is made, so the mail is awaited.
   */
  async function nextResetLink(fan: TestAccount, earlier = 0): Promise<string> {
    let links: string[] = [];
    await vi.waitFor(
      async () => {
        await runMail(app.deps, new Date());
        links = sentTo(fan)
          .filter((message) => message.subject === 'Reset your Stagedoor password')
          .map((message) => /reset-password\?token=([\w-]+)/.exec(message.text ?? '')?.[1] ?? '');
        expect(links.length).toBeGreaterThan(earlier);
      },
      { timeout: 30_000, interval: 50 },
    );
    return links[earlier] ?? '';
  }

  it('mails a single-use link that sets a new password and signs every older session out', async () => {
    const fan = await createUser(app);
    for (const email of [fan.email, 'nobody@example.test']) {
      const response = await forgot(email);
      expect(response.statusCode).toBe(202);
      expect(response.json()).toEqual({
        message: 'If an account has this email, a link to choose a new password is on its way.',
      });
    }
    const token = await nextResetLink(fan);
    expect(token).not.toBe('');
    // The link is not kept once it is sent.
    const [row] = await app.deps.db.select().from(outbox).where(eq(outbox.kind, 'password-reset'));
    expect(row?.data).toEqual({ firstName: fan.user.firstName });

    // The page checks the link before asking for a password: usable now, and checking uses nothing up.
    expect((await checkLink(token)).statusCode).toBe(204);
    expect((await checkLink(token)).statusCode).toBe(204);
    const done = await reset(token, 'a-brand-new-password');
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json<AuthResponse>().user.email).toBe(fan.email);
    const old = await api(app, {
      method: 'GET',
      url: '/api/auth/verify-token',
      headers: authHeader(fan.token),
    });
    expect(old.json<{ valid: boolean }>().valid).toBe(false);
    const checked = await checkLink(token);
    expect(checked.statusCode).toBe(400);
    expect(checked.json<ErrorBody>().fields).toEqual(INVALID_LINK);
    const again = await reset(token, 'yet-another-password');
    expect(again.statusCode).toBe(400);
    expect(again.json<{ fields: Record<string, string> }>().fields).toEqual(INVALID_LINK);
    const login = await api(app, {
      method: 'POST',
      url: '/api/auth/login/user',
      payload: { email: fan.email, password: 'a-brand-new-password' },
    });
    expect(login.statusCode).toBe(200);
  });

  it('refuses an expired link, and limits the links one address gets', async () => {
    const fan = await createUser(app);
    await forgot(fan.email);
    const token = await nextResetLink(fan);
    await app.deps.db
      .update(passwordResets)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResets.accountId, fan.user.id));
    expect((await checkLink(token)).json<ErrorBody>().fields).toEqual(INVALID_LINK);
    expect((await reset(token, 'a-brand-new-password')).statusCode).toBe(400);
    for (const forged of ['', 'x'.repeat(201), 'not-a-link']) {
      expect((await checkLink(forged)).statusCode, forged).toBe(400);
    }

    expect((await forgot(fan.email)).statusCode).toBe(202);
    expect((await forgot(fan.email)).statusCode).toBe(202);
    expect((await forgot(fan.email)).statusCode).toBe(429);
  });

  it('lets only the newest link work: an older one is refused once a newer one was sent', async () => {
    const fan = await createUser(app);
    await forgot(fan.email);
    const first = await nextResetLink(fan);
    await forgot(fan.email);
    const second = await nextResetLink(fan, 1);
    expect((await reset(first, 'a-brand-new-password')).json<ErrorBody>().fields).toEqual(INVALID_LINK);
    expect((await reset(second, 'a-brand-new-password')).statusCode).toBe(200);
  });

  it('refuses every link once the password changed, by the Profile form or another link', async () => {
    const fan = await createUser(app);
    await forgot(fan.email);
    const link = await nextResetLink(fan);
    const changed = await api(app, {
      method: 'POST',
      url: '/api/auth/change-password',
      headers: authHeader(fan.token),
      payload: { currentPassword: fan.password, newPassword: 'changed-in-the-profile' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await reset(link, 'a-brand-new-password')).json<ErrorBody>().fields).toEqual(INVALID_LINK);

    // Two requests at once: one link works, whichever it is, and after it was used, neither.
    const other = await createUser(app);
    await Promise.all([forgot(other.email), forgot(other.email)]);
    await nextResetLink(other, 1);
    const links = sentTo(other)
      .filter((message) => message.subject === 'Reset your Stagedoor password')
      .map((message) => /reset-password\?token=([\w-]+)/.exec(message.text ?? '')?.[1] ?? '');
    const answers = [];
    for (const token of links) answers.push((await reset(token, 'a-brand-new-password')).statusCode);
    expect(answers.sort()).toEqual([200, 400]);
  });

  it("answers an account's email in about the time of an unknown one", async () => {
    const timed = await createTestApp({ ...MAIL_ENV, AUTH_RATE_LIMIT_PER_MINUTE: '1000' });
    try {
      const fans = await Promise.all(Array.from({ length: 20 }, () => createUser(timed)));
      const known: number[] = [];
      const unknown: number[] = [];
      const time = async (email: string, into: number[]) => {
        const startedAt = performance.now();
        expect((await forgot(email, timed)).statusCode).toBe(202);
        into.push(performance.now() - startedAt);
      };
      for (const [n, fan] of fans.entries()) {
        await time(fan.email, known);
        await time(`nobody-${n}@example.test`, unknown);
      }
      // Before, an account's email took about four times as long (a link written and mail queued).
      expect(percentile(known, 0.5) / percentile(unknown, 0.5)).toBeLessThan(2);
    } finally {
      await timed.close();
    }
  });
});
