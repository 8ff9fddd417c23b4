import { MIN_CARD_PRICE, PRICE_BELOW_CARD_MINIMUM_MESSAGE, shownTicketType } from '@stagedoor/shared/events';
import { formatDollars } from '@stagedoor/shared/money';
import { AppError } from '../../errors';
import type { PromoCodeRow, TicketTypeRow } from './events.tables';

/**
 * What an order costs: its ticket type's price (or, paying what they want, the buyer's amount), less
 * what its promo code takes off each ticket, times the quantity. The one place of these rules: the
 * purchase writes what it answers, the quote shows it, the refusals word it.
 */

export type PricedType = Pick<
  TicketTypeRow,
  'id' | 'name' | 'priceCents' | 'maxTickets' | 'sold' | 'salesStart' | 'salesEnd' | 'suggestedCents'
>;
type PricedCode = Pick<
  PromoCodeRow,
  'id' | 'code' | 'percentOff' | 'amountOffCents' | 'maxUses' | 'uses' | 'expiresAt' | 'ticketTypeIds'
>;

export interface PriceRequest {
  quantity: number;
  /** The type's price the buyer saw; null: not said. */
  seenPriceCents: number | null;
  /** Paying what they want: each ticket's amount; null: the suggested one. */
  amountCents: number | null;
  /** The code as typed (upper case); null: none. */
  promoCode: string | null;
}

export interface Price {
  /** A ticket's price before the code. */
  unitPriceCents: number;
  discountCents: number;
  totalCents: number;
}

const MIN_CARD_CENTS = Math.round(MIN_CARD_PRICE * 100);

const invalid = (field: string, message: string) =>
  new AppError('VALIDATION_FAILED', message, { [field]: message });
const conflict = (field: string, message: string) => new AppError('CONFLICT', message, { [field]: message });

export const NO_SUCH_TYPE_MESSAGE = 'This ticket type is not one of this event';
const FIXED_PRICE_MESSAGE = 'These tickets have a fixed price: leave the amount out';
const NO_SUCH_CODE_MESSAGE = 'This promo code is not valid for this event';
const CODE_NOT_FOR_TYPE_MESSAGE = 'This promo code is not valid for these tickets';
const CODE_ON_OWN_AMOUNT_MESSAGE = 'Tickets you pay what you want for take no promo code';
const CODE_EXPIRED_MESSAGE = 'This promo code has expired';
const CODE_USED_UP_MESSAGE = 'This promo code has been used up';
const NOT_ON_SALE_YET_MESSAGE = 'These tickets are not on sale yet';
const SALES_ENDED_MESSAGE = 'These tickets are no longer on sale';

/** The event's one default type is the event: its price is the event's (shownTicketType). */
function typePriceChangedMessage(type: PricedType): string {
  const named = shownTicketType(type.name);
  return `The price of ${named ? `${named} tickets` : 'this event'} is now ${formatDollars(type.priceCents)}`;
}
const belowMinimumMessage = (minimumCents: number) => `Pay at least ${formatDollars(minimumCents)} a ticket`;

/** The type is on sale at `now`, within its own window (stock.ts checks the same in the stock step). */
export function typeSalesRefusal(type: PricedType, now: Date): AppError | null {
  if (type.salesStart && type.salesStart > now) return conflict('ticketTypeId', NOT_ON_SALE_YET_MESSAGE);
  if (type.salesEnd && type.salesEnd <= now) return conflict('ticketTypeId', SALES_ENDED_MESSAGE);
  return null;
}

/** What each ticket of the type takes off with the code (never more than its price). */
function discountOf(code: PricedCode, unitPriceCents: number): number {
  if (code.percentOff !== null) return Math.round((unitPriceCents * code.percentOff) / 100);
  return Math.min(unitPriceCents, code.amountOffCents ?? 0);
}

/**
 * The order's price, or why it has none: an amount for a fixed price or below the minimum, a code
 * unknown, not for this type, expired or used up, a price changed since the buyer saw it. `code` is the
 * event's code of that text, null when it has none.
 */
export function priceOf(
  type: PricedType,
  code: PricedCode | null,
  request: PriceRequest,
  now: Date,
): Price | AppError {
  const payWhatYouWant = type.suggestedCents !== null;
  if (request.seenPriceCents !== null && request.seenPriceCents !== type.priceCents) {
    return conflict('unitPrice', typePriceChangedMessage(type));
  }
  let unitPriceCents = type.priceCents;
  if (request.amountCents !== null && !payWhatYouWant) return invalid('amount', FIXED_PRICE_MESSAGE);
  if (payWhatYouWant) {
    unitPriceCents = request.amountCents ?? type.suggestedCents ?? type.priceCents;
    if (unitPriceCents < type.priceCents) return invalid('amount', belowMinimumMessage(type.priceCents));
    if (unitPriceCents > 0 && unitPriceCents < MIN_CARD_CENTS)
      return invalid('amount', PRICE_BELOW_CARD_MINIMUM_MESSAGE);
  }
  let discountCents = 0;
  if (request.promoCode !== null) {
    if (!code) return invalid('promoCode', NO_SUCH_CODE_MESSAGE);
    if (payWhatYouWant) return invalid('promoCode', CODE_ON_OWN_AMOUNT_MESSAGE);
    if (code.ticketTypeIds && !code.ticketTypeIds.includes(type.id))
      return invalid('promoCode', CODE_NOT_FOR_TYPE_MESSAGE);
    if (code.expiresAt && code.expiresAt <= now) return conflict('promoCode', CODE_EXPIRED_MESSAGE);
    if (code.maxUses !== null && code.uses >= code.maxUses)
      return conflict('promoCode', CODE_USED_UP_MESSAGE);
    discountCents = discountOf(code, unitPriceCents) * request.quantity;
  }
  return { unitPriceCents, discountCents, totalCents: unitPriceCents * request.quantity - discountCents };
}
