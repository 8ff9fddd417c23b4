import { DEFAULT_TICKET_TYPE_NAME, TICKET_PRICE_HINT } from '@stagedoor/shared/events';
import { TICKET_TYPE_NAME_MAX_LENGTH, TICKET_TYPES_MAX } from '@stagedoor/shared/limits';
import { Plus, Trash2 } from 'lucide-react';
import { Controller, useFieldArray, useWatch } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { DateTimePicker } from '../../../components/ui/date-time-picker';
import { Input } from '../../../components/ui/field';
import { formFields } from '../../../lib/form-fields';
import type { EventForm, TicketTypeRow } from '../lib/event-form-schema';
import { ToggleField } from './toggle-field';

const newType = (): TicketTypeRow => ({
  name: '',
  price: 0,
  payWhatYouWant: null,
  maxTickets: 1,
  salesStart: '',
  salesEnd: '',
});

type TicketTypesFieldsProps = {
  form: EventForm;
  timeZone: string;
  /** The event's first type, kept when "Add a ticket type" turns its price and stock into a list. */
  firstTypeId?: number;
  /** The price field's label: the edit form's is 'Price U$D' (spec §2). */
  priceLabel: string;
};

/** Two decimals at most, applied as a price is typed (spec §5, §9). */
function roundedPrice(value: number): number | null {
  const rounded = Math.round(value * 100) / 100;
  return Number.isFinite(value) && rounded !== value ? rounded : null;
}

/**
 * What the event sells: a price and a stock, or, once "Add a ticket type" is used, a list of types, each
 * with its name, its price (or pay what you want, from a minimum, with a suggested amount), its stock
 * and, if the creator wants one, its sales window.
 */
export function TicketTypesFields({ form, timeZone, firstTypeId, priceLabel }: TicketTypesFieldsProps) {
  const { control, getValues, setValue, formState } = form;
  const field = formFields(form);
  const types = useFieldArray({ control, name: 'ticketTypes', keyName: 'key' });
  const isList = types.fields.length > 0;
  const rows = useWatch({ control, name: 'ticketTypes' });
  const listError = formState.errors.ticketTypes?.message ?? formState.errors.ticketTypes?.root?.message;

  const listTypes = () => {
    const { price = 0, maxTickets = 1 } = getValues();
    setValue('price', undefined);
    setValue('maxTickets', undefined);
    types.replace([
      { ...newType(), id: firstTypeId, name: DEFAULT_TICKET_TYPE_NAME, price, maxTickets },
      newType(),
    ]);
  };

  const priceField = (name: 'price' | `ticketTypes.${number}.price`, label: string) => (
    <Input
      label={label}
      type="number"
      inputMode="decimal"
      min={0}
      step={0.01}
      hint={TICKET_PRICE_HINT}
      {...field(name, {
        valueAsNumber: true,
        onChange: ({ target }: { target: HTMLInputElement }) => {
          const rounded = roundedPrice(target.valueAsNumber);
          if (rounded !== null) setValue(name, rounded);
        },
      })}
    />
  );

  if (!isList) {
    return (
      <div className="space-y-3">
        <div className="grid gap-6 sm:grid-cols-2">
          {priceField('price', priceLabel)}
          <Input
            label="Maximum Tickets"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            {...field('maxTickets', { valueAsNumber: true })}
          />
        </div>
        <Button variant="secondary" size="sm" onClick={listTypes}>
          <Plus aria-hidden className="size-4" />
          Add a ticket type
        </Button>
      </div>
    );
  }

  return (
    <section aria-labelledby="ticket-types-heading" className="space-y-4">
      <div>
        <h2 id="ticket-types-heading" className="text-base font-semibold text-slate-900">
          Ticket types
        </h2>
        <p className="text-sm text-slate-600">
          The first one is the event&apos;s price. Maximum tickets is counted per type.
        </p>
      </div>
      {listError ? (
        <p id="ticketTypes-error" role="alert" className="text-sm text-red-600">
          {listError}
        </p>
      ) : null}
      <ol className="space-y-4">
        {types.fields.map((row, index) => {
          const at = `ticketTypes.${index}` as const;
          const payWhatYouWant = rows?.[index]?.payWhatYouWant ?? null;
          const name = rows?.[index]?.name ?? '';
          return (
            <li key={row.key}>
              <fieldset className="space-y-4 rounded-xl p-4 ring-1 ring-slate-200 sm:p-5">
                <legend className="px-1 text-sm font-semibold text-slate-700">{`Ticket type ${index + 1}`}</legend>
                <Input label="Name" maxLength={TICKET_TYPE_NAME_MAX_LENGTH} {...field(`${at}.name`)} />
                <ToggleField
                  label="Pay what you want"
                  description="Each buyer chooses what a ticket costs, from a minimum."
                  checked={payWhatYouWant !== null}
                  onChange={(on) => {
                    const price = getValues(`${at}.price`) ?? 0;
                    const minimum = payWhatYouWant?.minimum ?? 0;
                    setValue(`${at}.payWhatYouWant`, on ? { minimum: price, suggested: price } : null);
                    setValue(`${at}.price`, on ? undefined : minimum);
                  }}
                />
                <div className="grid gap-4 sm:grid-cols-2">
                  {payWhatYouWant ? (
                    <>
                      <Input
                        label="Minimum"
                        type="number"
                        inputMode="decimal"
                        min={0}
                        step={0.01}
                        hint={TICKET_PRICE_HINT}
                        {...field(`${at}.payWhatYouWant.minimum`, { valueAsNumber: true })}
                      />
                      <Input
                        label="Suggested amount"
                        type="number"
                        inputMode="decimal"
                        min={0}
                        step={0.01}
                        hint="Offered first at the checkout"
                        {...field(`${at}.payWhatYouWant.suggested`, { valueAsNumber: true })}
                      />
                    </>
                  ) : (
                    priceField(`${at}.price`, 'Price')
                  )}
                  <Input
                    label="Maximum Tickets"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    step={1}
                    {...field(`${at}.maxTickets`, { valueAsNumber: true })}
                  />
                </div>
                <div className="grid gap-4 sm:grid-cols-2">
                  {(['salesStart', 'salesEnd'] as const).map((bound) => (
                    <Controller
                      key={bound}
                      control={control}
                      name={`${at}.${bound}`}
                      render={({ field: picker, fieldState }) => (
                        <DateTimePicker
                          label={bound === 'salesStart' ? 'Sales start (optional)' : 'Sales end (optional)'}
                          timeZone={timeZone}
                          name={picker.name}
                          value={picker.value ?? ''}
                          onChange={picker.onChange}
                          onBlur={picker.onBlur}
                          error={fieldState.error?.message}
                        />
                      )}
                    />
                  ))}
                </div>
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={types.fields.length === 1}
                  aria-label={`Remove ${name.trim() || `ticket type ${index + 1}`}`}
                  onClick={() => types.remove(index)}
                >
                  <Trash2 aria-hidden className="size-4" />
                  Remove
                </Button>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <Button
        variant="secondary"
        size="sm"
        disabled={types.fields.length >= TICKET_TYPES_MAX}
        onClick={() => types.append(newType())}
      >
        <Plus aria-hidden className="size-4" />
        Add a ticket type
      </Button>
    </section>
  );
}
