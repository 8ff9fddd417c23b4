const amount = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** An amount with two decimals and no currency sign, e.g. `1,234.50` (My Tickets puts a euro icon before it). */
export function formatAmount(value: number): string {
  return amount.format(value);
}

/** Dollars with two decimals (spec §9), e.g. `$1,234.50`; an amount owed reads `−$5.00`. */
export function formatMoney(value: number): string {
  return value < 0 ? `−$${formatAmount(-value)}` : `$${formatAmount(value)}`;
}

/** A rate in basis points as the Terms word it, e.g. 1000 → `10%`. */
export function formatRate(bps: number): string {
  return `${bps / 100}%`;
}

const shortDateTime = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const longDateTime = new Intl.DateTimeFormat('en-US', {
  month: 'long',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const shortDate = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const time = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

/** `Mar 5, 2026, 7:30 PM`: event cards and lists. */
const chatTime = new Intl.DateTimeFormat('es-ES', { hour: '2-digit', minute: '2-digit' });

/** Hour and minute in the Spanish locale (spec §9), e.g. `21:05`: the time of a chat message. */
export function formatChatTime(timestamp: number): string {
  return chatTime.format(timestamp);
}

export function formatShortDateTime(iso: string): string {
  return shortDateTime.format(new Date(iso));
}

/** `March 5, 2026 at 7:30 PM`: the event details screen and the public creator profile. */
export function formatLongDateTime(iso: string): string {
  return longDateTime.format(new Date(iso));
}

/** `Mar 5, 2026`: the date line of a ticket. */
export function formatShortDate(iso: string): string {
  return shortDate.format(new Date(iso));
}

/** `7:30 PM`: the time line of a ticket. */
export function formatTime(iso: string): string {
  return time.format(new Date(iso));
}
