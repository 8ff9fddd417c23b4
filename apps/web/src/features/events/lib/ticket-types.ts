import type { TicketType } from '@stagedoor/shared/events';
import { formatMoney, formatShortDateTime } from '../../../lib/format';

/** Whether a type can be bought now: the server's own order of refusals (pricing.ts, stock.ts). */
type TypeSale = { onSale: true } | { onSale: false; text: string };

/** Why a type of an event on sale cannot be bought at `now`, in the words its list shows, or that it can. */
export function typeSale(type: TicketType, now: number, timeZone: string): TypeSale {
  if (type.salesStart && Date.parse(type.salesStart) > now) {
    return { onSale: false, text: `On sale from ${formatShortDateTime(type.salesStart, timeZone)}` };
  }
  if (type.salesEnd && Date.parse(type.salesEnd) <= now) return { onSale: false, text: 'Sales ended' };
  if (type.ticketsLeft < 1) return { onSale: false, text: 'Sold out' };
  return { onSale: true };
}

/** A type's price as its list says it: `$25.00`, `Free`, or `Pay what you want, from $5.00`. */
export function typePriceText(type: TicketType): string {
  if (type.payWhatYouWant) return `Pay what you want, from ${formatMoney(type.payWhatYouWant.minimum)}`;
  return type.price === 0 ? 'Free' : formatMoney(type.price);
}
