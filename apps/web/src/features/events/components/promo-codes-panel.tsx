import { zodResolver } from '@hookform/resolvers/zod';
import type { Event } from '@stagedoor/shared/events';
import {
  ZCreatePromoCodeRequest,
  type CreatePromoCodeRequest,
  type PromoCode,
} from '@stagedoor/shared/promo-codes';
import { useId, useMemo } from 'react';
import { Controller, useForm, useWatch, type Resolver } from 'react-hook-form';
import { z } from 'zod';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { DateTimePicker } from '../../../components/ui/date-time-picker';
import { Input } from '../../../components/ui/field';
import { LoadError } from '../../../components/ui/load-error';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { pickedInstant } from '../../../lib/dates';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { formatMoney, formatShortDateTime } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { useTimeZone } from '../../../lib/use-time-zone';
import { useCreatePromoCode, usePromoCodes } from '../api/promo-codes';

/** The new code's form: both kinds of discount are kept, the one chosen is sent. */
type PromoCodeFormValues = {
  code: string;
  kind: 'percent' | 'amount';
  percentOff: number;
  amountOff: number;
  /** The field's text: empty, no limit. */
  maxUses: string;
  /** The picker's text: empty, no expiry. */
  expiresAt: string;
  /** Ticked types; none ticked: every type. */
  ticketTypeIds: string[];
};

const NEW_CODE: PromoCodeFormValues = {
  code: '',
  kind: 'percent',
  percentOff: 10,
  amountOff: 5,
  maxUses: '',
  expiresAt: '',
  ticketTypeIds: [],
};

/** The form as the API takes it, judged by the API's own schema (ZCreatePromoCodeRequest). */
const promoCodeForm = (timeZone: string) =>
  z.preprocess(
    (values: PromoCodeFormValues) => ({
      code: values.code,
      ...(values.kind === 'percent' ? { percentOff: values.percentOff } : { amountOff: values.amountOff }),
      maxUses: values.maxUses.trim() || undefined,
      expiresAt: values.expiresAt.trim() ? pickedInstant(values.expiresAt, timeZone) : undefined,
      ticketTypeIds: values.ticketTypeIds.length ? values.ticketTypeIds.map(Number) : undefined,
    }),
    ZCreatePromoCodeRequest,
  );

const fieldNames = ['code', 'percentOff', 'amountOff', 'maxUses', 'expiresAt', 'ticketTypeIds'] as const;

/** What a code takes off each ticket, e.g. `20% off` or `$5.00 off`. */
function discountOf({ percentOff, amountOff }: PromoCode): string {
  return percentOff !== null ? `${percentOff}% off` : `${formatMoney(amountOff ?? 0)} off`;
}

/**
 * The event's promo codes, for its creator (on the edit screen): each with its discount, its uses and
 * its limits, and a form to make another. A pay-what-you-want type takes no code, so only the others
 * can be picked.
 */
export function PromoCodesPanel({ event }: { event: Event }) {
  const headingId = useId();
  const codes = usePromoCodes(event.id);
  const timeZone = useTimeZone();
  const typeNames = new Map(event.ticketTypes.map(({ id, name }) => [id, name]));

  return (
    <Card className="space-y-6 p-6 sm:p-8">
      <section aria-labelledby={headingId} className="space-y-4">
        <div>
          <h2 id={headingId} className="text-lg font-semibold text-slate-900">
            Promo codes
          </h2>
          <p className="text-sm text-slate-600">
            Fans type a code at the checkout to take a discount off each ticket.
          </p>
        </div>
        {codes.isPending ? (
          <Spinner label="Loading promo codes" />
        ) : codes.isError ? (
          <LoadError
            message={errorMessage(codes.error, 'The promo codes could not be loaded.')}
            onRetry={() => void codes.refetch()}
            isRetrying={codes.isFetching}
          />
        ) : codes.data.length === 0 ? (
          <p className="text-sm text-slate-600">No promo codes yet.</p>
        ) : (
          <ul aria-label="Promo codes" className="divide-y divide-slate-100 rounded-xl ring-1 ring-slate-200">
            {codes.data.map((code) => {
              const isUsedUp = code.maxUses !== null && code.uses >= code.maxUses;
              return (
                <li key={code.id} className="flex flex-wrap items-start justify-between gap-3 p-4 text-sm">
                  <div className="space-y-1">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="font-mono text-base font-semibold text-slate-900">{code.code}</span>
                      <span className="text-slate-700">{discountOf(code)}</span>
                      {isUsedUp ? <Badge tone="neutral">Used up</Badge> : null}
                    </p>
                    <p className="text-slate-600">
                      {[
                        code.ticketTypeIds
                          ? code.ticketTypeIds.map((id) => typeNames.get(id) ?? `Type ${id}`).join(', ')
                          : 'Every ticket type',
                        code.expiresAt
                          ? `Expires ${formatShortDateTime(code.expiresAt, timeZone)}`
                          : 'No expiry',
                      ].join(' · ')}
                    </p>
                  </div>
                  <p className="font-medium text-slate-900">
                    {code.maxUses === null ? `${code.uses} used` : `${code.uses} of ${code.maxUses} used`}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <NewPromoCode event={event} timeZone={timeZone} />
    </Card>
  );
}

function NewPromoCode({ event, timeZone }: { event: Event; timeZone: string }) {
  const headingId = useId();
  const create = useCreatePromoCode(event.id);
  const schema = useMemo(() => promoCodeForm(timeZone), [timeZone]);
  const form = useForm<PromoCodeFormValues, unknown, CreatePromoCodeRequest>({
    // The form's values are read into the request the API's schema judges.
    resolver: zodResolver(schema) as Resolver<PromoCodeFormValues, unknown, CreatePromoCodeRequest>,
    defaultValues: NEW_CODE,
  });
  const { control, handleSubmit, register, reset, setError, formState } = form;
  const field = formFields(form);
  const kind = useWatch({ control, name: 'kind' });
  const fixedPriceTypes = event.ticketTypes.filter(({ payWhatYouWant }) => payWhatYouWant === null);

  const onSubmit = handleSubmit(async (request) => {
    try {
      const made = await create.mutateAsync(request);
      notify(`Promo code ${made.code} created`, 'success');
      reset(NEW_CODE);
    } catch (error) {
      reportSubmitError(error, { setError, fields: fieldNames, fallback: 'Failed to create promo code' });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby={headingId} className="space-y-5">
      <h3 id={headingId} className="text-base font-semibold text-slate-900">
        New promo code
      </h3>
      <Input
        label="Code"
        autoComplete="off"
        hint="3 to 40 letters, digits, - or _; fans may type it in any case"
        className="font-mono uppercase"
        {...field('code')}
      />
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800">Discount on each ticket</legend>
        <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-800">
          <label className="flex items-center gap-2">
            <input type="radio" value="percent" className="accent-brand-600" {...register('kind')} />
            Percent off
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" value="amount" className="accent-brand-600" {...register('kind')} />
            Amount off
          </label>
        </div>
        <div className="grid gap-5 sm:grid-cols-2">
          {kind === 'percent' ? (
            <Input
              label="Percent"
              type="number"
              inputMode="numeric"
              min={1}
              max={100}
              step={1}
              {...field('percentOff', { valueAsNumber: true })}
            />
          ) : (
            <Input
              label="Amount ($)"
              type="number"
              inputMode="decimal"
              min={0.01}
              step={0.01}
              {...field('amountOff', { valueAsNumber: true })}
            />
          )}
        </div>
      </fieldset>
      <div className="grid gap-5 sm:grid-cols-2">
        <Input
          label="Maximum uses (optional)"
          type="number"
          inputMode="numeric"
          min={1}
          step={1}
          hint="One use an order; empty: no limit"
          {...field('maxUses')}
        />
        <Controller
          control={control}
          name="expiresAt"
          render={({ field: picker, fieldState }) => (
            <DateTimePicker
              label="Expires (optional)"
              timeZone={timeZone}
              name={picker.name}
              value={picker.value}
              onChange={picker.onChange}
              onBlur={picker.onBlur}
              error={fieldState.error?.message}
            />
          )}
        />
      </div>
      {fixedPriceTypes.length > 1 ? (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">Ticket types</legend>
          <p className="text-xs text-slate-500">
            None ticked: the code works on every type (pay-what-you-want tickets take no code).
          </p>
          <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-800">
            {fixedPriceTypes.map((type) => (
              <label key={type.id} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  value={String(type.id)}
                  className="accent-brand-600"
                  {...register('ticketTypeIds')}
                />
                {type.name}
              </label>
            ))}
          </div>
          {formState.errors.ticketTypeIds ? (
            <p className="text-sm text-red-600">{formState.errors.ticketTypeIds.message}</p>
          ) : null}
        </fieldset>
      ) : null}
      <Button type="submit" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Creating...' : 'Create promo code'}
      </Button>
    </form>
  );
}
