import type { TicketType } from '@stagedoor/shared/events';
import { cn } from '../../../lib/cn';
import { typePriceText, typeSale } from '../lib/ticket-types';

type TicketTypeChoiceProps = {
  types: TicketType[];
  value: number;
  onChange: (type: TicketType) => void;
  now: number;
  timeZone: string;
  /** The server's refusal of the type chosen. */
  error?: string;
};

/** The checkout's choice of ticket type: each with its price and what is left; one not on sale cannot be picked. */
export function TicketTypeChoice({ types, value, onChange, now, timeZone, error }: TicketTypeChoiceProps) {
  return (
    <fieldset className="space-y-3" aria-describedby={error ? 'ticketTypeId-error' : undefined}>
      <legend className="text-sm font-medium text-slate-800">Ticket type</legend>
      <div className="space-y-2">
        {types.map((type) => {
          const sale = typeSale(type, now, timeZone);
          return (
            <label
              key={type.id}
              className={cn(
                'flex items-start gap-3 rounded-xl p-4 ring-1 ring-slate-200 ring-inset',
                sale.onSale
                  ? 'cursor-pointer has-checked:bg-brand-50 has-checked:ring-2 has-checked:ring-brand-600'
                  : 'cursor-not-allowed bg-slate-50 text-slate-500',
              )}
            >
              <input
                type="radio"
                name="ticketTypeId"
                value={type.id}
                checked={type.id === value}
                disabled={!sale.onSale}
                onChange={() => onChange(type)}
                className="mt-1 accent-brand-600"
              />
              <span className="flex flex-1 flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <span className="font-semibold text-slate-900">{type.name}</span>
                <span className="font-medium text-slate-900">{typePriceText(type)}</span>
                <span className="w-full text-sm text-slate-600">
                  {sale.onSale ? `${type.ticketsLeft} left` : sale.text}
                </span>
              </span>
            </label>
          );
        })}
      </div>
      {error ? (
        <p id="ticketTypeId-error" className="text-sm text-red-600">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
