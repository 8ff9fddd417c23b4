const amount = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount with two decimals and no currency sign, e.g. `1,234.50` (My Tickets puts a euro icon before it). */
export function formatAmount(value: number): string {
  return amount.format(value);
}

const wholeNumber = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** A count as the product writes one, e.g. `1,204`. */
export function formatCount(value: number): string {
  return wholeNumber.format(value);
}

/** Dollars with two decimals (spec §9), e.g. `$1,234.50`; an amount owed reads `−$5.00`. */
export function formatMoney(value: number): string {
  return value < 0 ? `−$${formatAmount(-value)}` : `$${formatAmount(value)}`;
}

/** What an order comes to: `Free` when nothing, else as formatMoney. */
export function formatTotal(value: number): string {
  return value === 0 ? 'Free' : formatMoney(value);
}

/** A rate in basis points as the Terms word it, e.g. 1000 → `10%`. */
export function formatRate(bps: number): string {
  return `${bps / 100}%`;
}

/** Intl formats for one set of options, made once per time zone (making one is slow). */
function zonedFormat(options: Intl.DateTimeFormatOptions) {
  const byZone = new Map<string, Intl.DateTimeFormat>();
  return (timeZone: string) => {
    let format = byZone.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-US', { ...options, timeZone });
      byZone.set(timeZone, format);
    }
    return format;
  };
}

// Every date the app shows names its zone (DESIGN.md "Reach"): the short name, `PST` or `GMT+1`.
const shortDateTime = zonedFormat({
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});
const longDateTime = zonedFormat({
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZoneName: 'short',
});
const shortDate = zonedFormat({ month: 'short', day: 'numeric', year: 'numeric' });
const time = zonedFormat({ hour: 'numeric', minute: '2-digit', timeZoneName: 'short' });
const clockTime = zonedFormat({ hour: 'numeric', minute: '2-digit' });
const dayAndClockTime = zonedFormat({ month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
/** `Mar 5, 2026, 7:30 PM PST`: event cards, lists and tables. */
export function formatShortDateTime(iso: string, timeZone: string): string {
  return shortDateTime(timeZone).format(new Date(iso));
}

/** `March 5, 2026 at 7:30 PM PST`: the event details screen and the public creator profile. */
export function formatLongDateTime(iso: string, timeZone: string): string {
  return longDateTime(timeZone).format(new Date(iso));
}

/** `Mar 5, 2026`, the day in `timeZone`: the date line of a ticket, whose time line names the zone. */
export function formatShortDate(iso: string, timeZone: string): string {
  return shortDate(timeZone).format(new Date(iso));
}

/** `7:30 PM PST`: the time line of a ticket. */
export function formatTime(iso: string, timeZone: string): string {
  return time(timeZone).format(new Date(iso));
}

/**
 * `7:00 PM`, or `Nov 25, 7:00 PM` with the day, as a clock in `timeZone` reads: for a line that names
 * its zone itself (the creator's local time on the event page), and a chat message's time, in the
 * 12-hour clock of every other date on the site (spec §9's Spanish `21:05` read as a stray 24-hour time).
 */
export function formatWallTime(iso: string, timeZone: string, { withDay = false } = {}): string {
  return (withDay ? dayAndClockTime : clockTime)(timeZone).format(new Date(iso));
}

/**
 * `7:30 PM PST` when that is today in `timeZone` (as of `now`), else as formatShortDateTime: when
 * tickets held for a fan stop being held, most often within the hour, sometimes (a long hold) tomorrow.
 */
export function formatDeadline(iso: string, timeZone: string, now: number): string {
  const sameDay = shortDate(timeZone).format(new Date(iso)) === shortDate(timeZone).format(new Date(now));
  return sameDay ? formatTime(iso, timeZone) : formatShortDateTime(iso, timeZone);
}
