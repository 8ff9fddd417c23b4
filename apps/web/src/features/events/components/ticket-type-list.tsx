import type { TicketType } from '@stagedoor/shared/events';
import { typePriceText, typeSale } from '../lib/ticket-types';

/** The event page's ticket types: each with its price and what is left, or why it is not on sale now. */
export function TicketTypeList({
  types,
  now,
  timeZone,
}: {
  types: TicketType[];
  now: number;
  timeZone: string;
}) {
  return (
    <ul aria-label="Ticket types" className="divide-y divide-slate-200">
      {types.map((type) => {
        const sale = typeSale(type, now, timeZone);
        return (
          <li key={type.id} className="space-y-0.5 py-3 first:pt-0 last:pb-0">
            <p className="flex items-baseline justify-between gap-3">
              <span className="font-semibold text-slate-900">{type.name}</span>
              <span className="shrink-0 font-semibold text-slate-900">
                {type.payWhatYouWant ? null : typePriceText(type)}
              </span>
            </p>
            {type.payWhatYouWant ? <p className="text-sm text-slate-700">{typePriceText(type)}</p> : null}
            <p className="text-sm text-slate-600">
              {sale.onSale ? `${type.ticketsLeft} tickets left` : sale.text}
            </p>
          </li>
        );
      })}
    </ul>
  );
}
