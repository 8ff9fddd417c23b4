import { DEFAULT_MAX_PER_BUYER } from '@stagedoor/shared/limits';
import { IMAGE_FILES_HINT, imageUrls, EVENT_IMAGE_MESSAGES } from '@stagedoor/shared/images';
import { Field, Label, Description, Switch } from '@headlessui/react';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  MAX_PER_BUYER_ABOVE_MAX_TICKETS_MESSAGE,
  TICKET_PRICE_HINT,
  ZCreateEventRequest,
  ZMaxPerBuyer,
  ZUpdateEventRequest,
  type Event,
} from '@stagedoor/shared/events';
import { useMemo, useState } from 'react';
import { Controller, useForm, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { DateTimePicker } from '../../../components/ui/date-time-picker';
import { ImageInput, Input, Textarea } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { parsePickerValue, toPickerValue } from '../../../lib/dates';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { IMAGE_ACCEPT } from '../../../lib/images';
import { notify } from '../../../lib/notify';
import { useImagePick } from '../../../lib/use-image-pick';
import { useTimeZone } from '../../../lib/use-time-zone';
import { useSaveEvent } from '../api/events';

/**
 * Reads the picker's `Y-m-d H:i` text, a time in the account's zone, as the ISO instant the API takes,
 * for the API's own date rule to judge; text that is no date goes through as it is, for that rule to refuse.
 */
const pickedDate = (rule: z.ZodType<string, string>, timeZone: string) =>
  z
    .string()
    .trim()
    .min(1, 'Event date is required')
    .transform((value) => parsePickerValue(value, timeZone)?.toISOString() ?? value)
    .pipe(rule);

/** An empty field sets no limit (the event's maximum tickets is the limit then). */
const optionalMaxPerBuyer = z.preprocess(
  (value) => (value === '' ? undefined : value),
  ZMaxPerBuyer.optional(),
);

/** The server's rule, checked before sending so that its reason shows beside the field at once. */
const perBuyerFits = ({ maxTickets, maxPerBuyer }: { maxTickets: number; maxPerBuyer?: number }) =>
  maxPerBuyer === undefined || maxPerBuyer <= maxTickets;
const perBuyerTooHigh = { message: MAX_PER_BUYER_ABOVE_MAX_TICKETS_MESSAGE, path: ['maxPerBuyer'] };

/**
 * The forms are the API's request schemas (spec §5): the server's rules and messages apply before
 * anything is sent. Creating refuses a past date; editing leaves that to the server, which accepts an
 * unchanged date of an event that has already started (a rename), and refuses a changed past one.
 */
const createEventForm = (timeZone: string) =>
  ZCreateEventRequest.extend({
    date: pickedDate(ZCreateEventRequest.shape.date, timeZone),
    maxPerBuyer: optionalMaxPerBuyer,
  }).refine(perBuyerFits, perBuyerTooHigh);
const editEventForm = (timeZone: string) =>
  ZUpdateEventRequest.required()
    .extend({
      date: pickedDate(ZUpdateEventRequest.shape.date.unwrap(), timeZone),
      maxPerBuyer: optionalMaxPerBuyer,
    })
    .refine(perBuyerFits, perBuyerTooHigh);

const fieldNames = [
  'name',
  'description',
  'price',
  'maxTickets',
  'maxPerBuyer',
  'date',
  'isActive',
  'replayEnabled',
] as const;

const IMAGE_REQUIRED = 'Please select an event image';

/** Two decimals at most, applied as the price is typed (spec §5, §9). */
function roundedPrice(value: number): number | null {
  const rounded = Math.round(value * 100) / 100;
  return Number.isFinite(value) && rounded !== value ? rounded : null;
}

/** One form for both screens: without an event it creates one, with one it edits it. */
export function EventForm({ event }: { event?: Event }) {
  const isEdit = event !== undefined;
  const navigate = useNavigate();
  const save = useSaveEvent(event ? String(event.id) : undefined);
  const image = useImagePick(
    isEdit ? EVENT_IMAGE_MESSAGES : { ...EVENT_IMAGE_MESSAGES, required: IMAGE_REQUIRED },
  );
  // Remounting the file input is the only way to empty it after "Remove New Image".
  const [imageInputKey, setImageInputKey] = useState(0);
  const timeZone = useTimeZone();
  const schema = useMemo(
    () => (isEdit ? editEventForm(timeZone) : createEventForm(timeZone)),
    [isEdit, timeZone],
  );
  const form = useForm({
    resolver: zodResolver(schema),
    defaultValues: event
      ? {
          name: event.name,
          description: event.description,
          price: event.price,
          maxTickets: event.maxTickets,
          // An event without a limit of its own presents maxTickets as its limit: the field stays empty.
          maxPerBuyer: event.maxPerBuyer < event.maxTickets ? String(event.maxPerBuyer) : '',
          date: toPickerValue(event.date, timeZone),
          isActive: event.isActive,
          replayEnabled: event.replayEnabled,
        }
      : {
          name: '',
          description: '',
          price: 0,
          maxTickets: 1,
          maxPerBuyer: '',
          date: '',
          isActive: true,
          replayEnabled: true,
        },
  });
  const {
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
  } = form;
  const field = formFields(form);

  const onSubmit = handleSubmit(async (values) => {
    if (!isEdit && !image.file) {
      image.setError(IMAGE_REQUIRED);
      return;
    }
    // An untouched date goes back exactly as stored: the picker shows minutes, the event may have seconds.
    const date =
      event && toPickerValue(values.date, timeZone) === toPickerValue(event.date, timeZone)
        ? event.date
        : values.date;
    // The API keeps a limit it is not sent, so emptying the field of an event with a limit sends the
    // maximum tickets: the allowance an empty field promises.
    const maxPerBuyer =
      values.maxPerBuyer ??
      (event && event.maxPerBuyer !== values.maxTickets ? values.maxTickets : undefined);
    try {
      await save.mutateAsync({ ...values, date, maxPerBuyer, image: image.file });
      notify(isEdit ? 'Event updated successfully!' : 'Event created successfully!', 'success');
      navigate(paths.creatorMyEvents);
    } catch (error) {
      reportSubmitError(error, {
        setError,
        fields: fieldNames,
        fallback: isEdit ? 'Failed to update event' : 'Failed to create event',
        otherFields: { image: image.setError },
      });
    }
  });

  const removeNewImage = () => {
    image.pick(null);
    setImageInputKey((key) => key + 1);
  };

  return (
    <Card className="p-6 sm:p-8">
      <form onSubmit={onSubmit} noValidate className="space-y-6">
        <Input label="Event Name" {...field('name')} />
        <Textarea label="Description" rows={5} {...field('description')} />
        <div className="space-y-3">
          <ImageInput
            key={imageInputKey}
            label="Event Image"
            name="image"
            required={!isEdit}
            hint={IMAGE_FILES_HINT}
            shape="cover"
            accept={IMAGE_ACCEPT}
            currentUrl={event?.image ? imageUrls.event(event.image) : null}
            file={image.file}
            onPick={image.pick}
            error={image.error}
          />
          {isEdit && image.file ? (
            <Button variant="secondary" size="sm" onClick={removeNewImage}>
              Remove New Image
            </Button>
          ) : null}
        </div>
        <div className="grid gap-6 sm:grid-cols-2">
          <Input
            label={isEdit ? 'Price U$D' : 'Price'}
            type="number"
            inputMode="decimal"
            min={0}
            step={0.01}
            hint={TICKET_PRICE_HINT}
            {...field('price', {
              valueAsNumber: true,
              onChange: ({ target }: { target: HTMLInputElement }) => {
                const rounded = roundedPrice(target.valueAsNumber);
                if (rounded !== null) setValue('price', rounded);
              },
            })}
          />
          <Input
            label="Maximum Tickets"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            {...field('maxTickets', { valueAsNumber: true })}
          />
          <Input
            label="Maximum per buyer"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            hint={`Leave empty to allow up to ${DEFAULT_MAX_PER_BUYER} per buyer`}
            {...field('maxPerBuyer')}
          />
        </div>
        <Controller
          control={control}
          name="date"
          render={({ field }) => (
            <DateTimePicker
              label="Event Date"
              timeZone={timeZone}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              error={errors.date?.message}
            />
          )}
        />
        {isEdit ? (
          <SwitchField
            control={control}
            name="isActive"
            label="Active"
            description="Inactive events are hidden from the event list and cannot be streamed."
          />
        ) : null}
        <SwitchField
          control={control}
          name="replayEnabled"
          label="Replay"
          description="Each show is recorded, and ticket holders can watch it again afterwards."
        />
        <Button type="submit" size="lg" disabled={isSubmitting || (!isEdit && !image.file)}>
          {isEdit
            ? isSubmitting
              ? 'Saving...'
              : 'Save Changes'
            : isSubmitting
              ? 'Creating...'
              : 'Create Event'}
        </Button>
      </form>
    </Card>
  );
}

/** An on/off field of the form (Headless UI's Switch), its label and what it means. */
function SwitchField<Values extends FieldValues>({
  control,
  name,
  label,
  description,
}: {
  control: Control<Values>;
  name: Path<Values>;
  label: string;
  description: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Field className="flex items-start gap-3">
          <Switch
            checked={field.value === true}
            onChange={field.onChange}
            className="group relative mt-0.5 inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-checked:bg-brand-600"
          >
            <span
              aria-hidden
              className="size-5 translate-x-0.5 translate-y-0.5 rounded-full bg-white shadow transition-transform group-data-checked:translate-x-5.5"
            />
          </Switch>
          <div>
            <Label className="text-sm font-medium text-slate-800">{label}</Label>
            <Description className="text-xs text-slate-500">{description}</Description>
          </div>
        </Field>
      )}
    />
  );
}
