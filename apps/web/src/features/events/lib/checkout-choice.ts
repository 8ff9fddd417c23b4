import { ZAmount, type TicketType } from '@stagedoor/shared/events';
import type { CreateOrderRequest } from '@stagedoor/shared/orders';

/** What the fan has chosen at the checkout. */
type CheckoutChoice = {
  ticketTypeId: number;
  quantity: number;
  /** Paying what they want: each ticket's amount, as typed. */
  amount: string;
  /** The promo code field, as typed. */
  codeDraft: string;
  /** The code applied ("Apply"): the quotes and the purchase carry it. */
  code: string | null;
};

type CheckoutAction =
  /** Another type, and how many of it the fan may take (the quantity comes down to it). */
  | { type: 'chooseType'; ticketType: TicketType; maxQuantity: number }
  | { type: 'setQuantity'; quantity: number }
  | { type: 'setAmount'; amount: string }
  | { type: 'typeCode'; code: string }
  | { type: 'applyCode' }
  | { type: 'removeCode' };

/** A pay-what-you-want type starts at its suggested amount. */
const amountOf = (type: TicketType) => (type.payWhatYouWant ? String(type.payWhatYouWant.suggested) : '');

export function firstChoice(type: TicketType): CheckoutChoice {
  return { ticketTypeId: type.id, quantity: 1, amount: amountOf(type), codeDraft: '', code: null };
}

/** The checkout's choices: a type, its quantity, its amount, a code typed and one applied. */
export function checkoutReducer(choice: CheckoutChoice, action: CheckoutAction): CheckoutChoice {
  switch (action.type) {
    case 'chooseType':
      return {
        ...choice,
        ticketTypeId: action.ticketType.id,
        quantity: Math.max(1, Math.min(choice.quantity, action.maxQuantity)),
        amount: amountOf(action.ticketType),
      };
    case 'setQuantity':
      return { ...choice, quantity: action.quantity };
    case 'setAmount':
      return { ...choice, amount: action.amount };
    case 'typeCode':
      return { ...choice, codeDraft: action.code };
    case 'applyCode':
      return { ...choice, code: choice.codeDraft.trim().toUpperCase() || null };
    case 'removeCode':
      return { ...choice, code: null, codeDraft: '' };
  }
}

/**
 * The purchase the choice asks for, or why the amount typed cannot be one (the API's own rule); a
 * pay-what-you-want ticket takes no code (its buyer already chose its price), so none is sent with it.
 */
export function purchaseOf(
  eventId: number,
  type: TicketType,
  choice: CheckoutChoice,
): { request: CreateOrderRequest; unitPrice: number } | { amountError: string } {
  const base = { eventId, ticketTypeId: type.id, quantity: choice.quantity };
  if (!type.payWhatYouWant) {
    return {
      request: { ...base, ...(choice.code ? { promoCode: choice.code } : {}) },
      unitPrice: type.price,
    };
  }
  const amount = ZAmount.safeParse(choice.amount.trim());
  if (!amount.success) return { amountError: amount.error.issues[0]?.message ?? 'Amount must be a number' };
  return { request: { ...base, amount: amount.data }, unitPrice: amount.data };
}
