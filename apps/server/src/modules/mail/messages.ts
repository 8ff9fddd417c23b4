import { formatDollars } from '@stagedoor/shared/money';
import { HELD_TICKETS_PARAM } from '@stagedoor/shared/waitlist';
import { counted } from '@stagedoor/shared/words';
import { eventCalendar } from '../../calendar';
import type { MailFacts, MailKind, ShowFacts, WatchFacts } from './outbox';

export interface RenderedMail {
  subject: string;
  html: string;
  text: string;
  attachments: { filename: string; contentType: string; content: string }[];
}

/** What rendering needs beyond a message's facts: the site's address and signed links. */
export interface MailLinks {
  siteUrl: string;
  /** The link that turns an account's reminders off. */
  remindersOff: (accountId: number) => string;
}

/** A paragraph, or a button (`[label, url]`), of a message's body. */
type Block = string | { button: string; url: string };

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A moment where the reader is, with its zone: 'Thursday, November 26, 2026 at 7:00 PM GMT+1'. */
function momentIn(timeZone: string, iso: string): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone,
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** The show's time where the reader is. */
const showTime = (facts: Pick<ShowFacts, 'eventDate' | 'timeZone'>) =>
  momentIn(facts.timeZone, facts.eventDate);

/**
 * One look for every message: the brand bar, the blocks, a footer; and the same words as plain text. A
 * paragraph keeps its line breaks (a creator's message has them).
 */
function layout(subject: string, blocks: Block[], footer?: string): Omit<RenderedMail, 'attachments'> {
  const body = blocks
    .map((block) =>
      typeof block === 'string'
        ? `<p style="margin:0 0 16px;line-height:1.5;white-space:pre-line">${escapeHtml(block)}</p>`
        : `<p style="margin:24px 0"><a href="${escapeHtml(block.url)}" style="background:#db2777;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(block.button)}</a></p>`,
    )
    .join('\n');
  const html = `<!doctype html>
<html><body style="margin:0;background:#f8fafc;font-family:Helvetica,Arial,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;padding:24px">
<div style="background:#0f172a;color:#ffffff;padding:16px 24px;border-radius:12px 12px 0 0;font-weight:700;font-size:18px">Stagedoor</div>
<div style="background:#ffffff;padding:24px;border-radius:0 0 12px 12px;border:1px solid #e2e8f0">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(subject)}</h1>
${body}
</div>
${footer ? `<p style="font-size:12px;color:#64748b;margin:16px 0">${escapeHtml(footer)}</p>` : ''}
</div></body></html>`;
  const text = [
    subject,
    ...blocks.map((block) => (typeof block === 'string' ? block : `${block.button}: ${block.url}`)),
    ...(footer ? [footer] : []),
  ].join('\n\n');
  return { subject, html, text };
}

const tickets = (quantity: number) => (quantity === 1 ? 'a ticket' : counted(quantity, 'ticket'));

const plain = (mail: Omit<RenderedMail, 'attachments'>): RenderedMail => ({ ...mail, attachments: [] });

const eventUrl = (links: MailLinks, facts: ShowFacts) => `${links.siteUrl}/events/${facts.eventId}`;
/** Where a message leads to the show: its watch link, which signs the reader in on the way. */
const watchUrl = (links: MailLinks, facts: ShowFacts & WatchFacts) =>
  facts.watchToken
    ? `${links.siteUrl}/watch/${facts.watchToken}`
    : `${links.siteUrl}/events/${facts.eventId}/stream`;
/** Someone's text as paragraphs: split where a line is left blank. */
const paragraphsOf = (text: string) => text.split(/\n\s*\n/).map((paragraph) => paragraph.trim());
const remindersFooter = (links: MailLinks, accountId: number) =>
  `You get this because you hold a ticket. Turn reminders off: ${links.remindersOff(accountId)}`;

/** Why a refund notice is sent, in its first line. */
const REFUND_OPENINGS: Record<MailFacts['refund']['reason'], (facts: MailFacts['refund']) => string> = {
  cancelled: (facts) =>
    `Hi ${facts.firstName}, ${facts.eventName} (${showTime(facts)}) was cancelled by its creator.`,
  outage: (facts) =>
    `Hi ${facts.firstName}, ${facts.eventName} was disrupted by a Stagedoor outage. We are sorry.`,
  late_payment: (facts) =>
    `Hi ${facts.firstName}, your payment for ${facts.eventName} arrived after your tickets were released, and they were sold out by then.`,
  dashboard: (facts) =>
    `Hi ${facts.firstName}, the Stagedoor team refunded your order for ${facts.eventName}.`,
};

const RENDER: { [Kind in MailKind]: (facts: MailFacts[Kind], links: MailLinks) => RenderedMail } = {
  welcome: (facts, links) =>
    plain(
      layout(`Welcome to Stagedoor, ${facts.firstName}`, [
        facts.role === 'creator'
          ? 'Your creator account is ready: publish an event, share its link, and go live from your browser.'
          : 'Your account is ready: find a show, get your tickets, and watch it live with the chat.',
        facts.role === 'creator'
          ? { button: 'Create your first event', url: `${links.siteUrl}/creators/dashboard/events/create` }
          : { button: 'Browse events', url: `${links.siteUrl}/events` },
      ]),
    ),

  receipt: (facts, links) => ({
    ...layout(`Your tickets for ${facts.eventName}`, [
      `Thank you, ${facts.firstName}. Order #${facts.orderId}: ${counted(facts.quantity, facts.ticketType ? `${facts.ticketType} ticket` : 'ticket')}, ${formatDollars(facts.totalCents)} in total${facts.promoCode && facts.discountCents ? `, ${formatDollars(facts.discountCents)} off with ${facts.promoCode}` : ''}.`,
      `${facts.eventName}${facts.creatorName ? ` with ${facts.creatorName}` : ''}: ${showTime(facts)}.`,
      'The calendar invitation is attached. This link opens your show, no password needed: keep it to yourself.',
      { button: 'Watch', url: watchUrl(links, facts) },
    ]),
    attachments: [
      {
        filename: 'stagedoor-event.ics',
        contentType: 'text/calendar; charset=utf-8',
        content: eventCalendar(
          {
            id: facts.eventId,
            name: facts.eventName,
            description: facts.eventName,
            date: new Date(facts.eventDate),
          },
          { firstName: facts.creatorName, lastName: '' },
          eventUrl(links, facts),
        ),
      },
    ],
  }),

  'reminder-24h': (facts, links) =>
    plain(
      layout(
        `${facts.eventName} is tomorrow`,
        [
          `Hi ${facts.firstName}, your show starts ${showTime(facts)}.`,
          { button: 'Go to the show', url: watchUrl(links, facts) },
        ],
        remindersFooter(links, facts.accountId),
      ),
    ),

  'reminder-1h': (facts, links) =>
    plain(
      layout(
        `${facts.eventName} starts in an hour`,
        [
          `Hi ${facts.firstName}, your show starts ${showTime(facts)}.`,
          { button: 'Watch', url: watchUrl(links, facts) },
        ],
        remindersFooter(links, facts.accountId),
      ),
    ),

  'live-now': (facts, links) =>
    plain(
      layout(
        `${facts.eventName} is live now`,
        [
          `Hi ${facts.firstName}, the show has started.`,
          { button: 'Watch now', url: watchUrl(links, facts) },
        ],
        remindersFooter(links, facts.accountId),
      ),
    ),

  'replay-ready': (facts, links) =>
    plain(
      layout(
        `The replay of ${facts.eventName} is ready`,
        [
          `Hi ${facts.firstName}, you can watch ${facts.eventName} again, from the start, whenever you like.`,
          { button: 'Watch the replay', url: watchUrl(links, facts) },
        ],
        remindersFooter(links, facts.accountId),
      ),
    ),

  'replay-failed': (facts, links) =>
    plain(
      layout(`The replay of ${facts.eventName} could not be made`, [
        `Hi ${facts.firstName}, we tried three times to make the replay of ${facts.eventName}, and could not.`,
        'Your ticket holders are told it is not available. The recording is kept: tell us and we will look into it.',
        { button: 'Your event', url: `${links.siteUrl}/creators/dashboard/my-events` },
      ]),
    ),

  refund: (facts, links) =>
    plain(
      layout(`Refund for ${facts.eventName}`, [
        REFUND_OPENINGS[facts.reason](facts),
        `Order #${facts.orderId} is refunded in full: ${formatDollars(facts.totalCents)}. Card refunds take 5 to 10 days to appear.`,
        { button: 'Find another show', url: `${links.siteUrl}/events` },
      ]),
    ),

  'waitlist-offer': (facts, links) =>
    plain(
      layout(`Tickets to ${facts.eventName} are waiting for you`, [
        `Hi ${facts.firstName}, tickets to ${facts.eventName} (${showTime(facts)}) came back, and you are next on the waitlist.`,
        `We are holding ${counted(facts.quantity, facts.ticketType ? `${facts.ticketType} ticket` : 'ticket')} for you until ${momentIn(facts.timeZone, facts.holdUntil)}: ${formatDollars(facts.totalCents)} in total. After that they go to the next fan in line.`,
        { button: 'Get your tickets', url: `${eventUrl(links, facts)}?${HELD_TICKETS_PARAM}` },
      ]),
    ),

  'ticket-gift': (facts, links) =>
    plain(
      layout(`${facts.senderName} gave you ${tickets(facts.quantity)} to ${facts.eventName}`, [
        `${facts.senderName} gave you ${tickets(facts.quantity)} to ${facts.eventName}: ${showTime(facts)}.`,
        'This link opens your show, no password needed: keep it to yourself.',
        { button: 'Watch', url: watchUrl(links, facts) },
        ...(facts.invited
          ? [
              'To keep your tickets in an account of your own, sign up with this email address: they will be there.',
              { button: 'Sign up', url: `${links.siteUrl}/user/register` },
            ]
          : []),
      ]),
    ),

  'creator-message': (facts, links) =>
    plain(
      layout(
        `${facts.eventName}: ${facts.subject}`,
        [
          `${facts.creatorName} wrote to everyone with a ticket to ${facts.eventName} (${showTime(facts)}):`,
          ...paragraphsOf(facts.body),
          { button: 'Go to the show', url: watchUrl(links, facts) },
        ],
        `You get this because you hold a ticket to ${facts.eventName}. The message is ${facts.creatorName}'s own, sent through Stagedoor.`,
      ),
    ),

  'password-changed': (facts) =>
    plain(
      layout('Your Stagedoor password was changed', [
        `Hi ${facts.firstName}, the password of your account was just changed and every other session was signed out.`,
        'If this was not you, reset your password at once and write to us.',
      ]),
    ),

  'password-reset': (facts, links) =>
    plain(
      layout('Reset your Stagedoor password', [
        `Hi ${facts.firstName}, use this link within an hour to choose a new password. It works once.`,
        { button: 'Choose a new password', url: `${links.siteUrl}/reset-password?token=${facts.token}` },
        'If you did not ask for it, ignore this message: your password stays as it is.',
      ]),
    ),
};

/** The message of a queued row, in the product's look, with its plain-text part and attachments. */
export function renderMail(kind: MailKind, facts: Record<string, unknown>, links: MailLinks): RenderedMail {
  const render = RENDER[kind] as (facts: unknown, links: MailLinks) => RenderedMail;
  return render(facts, links);
}
