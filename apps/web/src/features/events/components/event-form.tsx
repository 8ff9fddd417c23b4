import { DEFAULT_MAX_PER_BUYER } from '@stagedoor/shared/limits';
import { IMAGE_FILES_HINT, imageUrls, EVENT_IMAGE_MESSAGES } from '@stagedoor/shared/images';
import { zodResolver } from '@hookform/resolvers/zod';
import type { Event } from '@stagedoor/shared/events';
import { useMemo, useState } from 'react';
import { Controller, useForm, type Resolver } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { DateTimePicker } from '../../../components/ui/date-time-picker';
import { ImageInput, Input, Textarea } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { toPickerValue } from '../../../lib/dates';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { IMAGE_ACCEPT } from '../../../lib/images';
import { notify } from '../../../lib/notify';
import { useImagePick } from '../../../lib/use-image-pick';
import { useTimeZone } from '../../../lib/use-time-zone';
import { useSaveEvent } from '../api/events';
import {
  createEventForm,
  editEventForm,
  eventFieldNames,
  eventFormValuesOf,
  NEW_EVENT_VALUES,
  totalTickets,
  type EventForm,
  type EventFormOutput,
  type EventFormValues,
} from '../lib/event-form-schema';
import { TicketTypesFields } from './ticket-types-fields';
import { ToggleField } from './toggle-field';

const IMAGE_REQUIRED = 'Please select an event image';

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
  const form: EventForm = useForm<EventFormValues, unknown, EventFormOutput>({
    // One resolver for either schema: both read the same form and send what the API takes.
    resolver: zodResolver(schema) as Resolver<EventFormValues, unknown, EventFormOutput>,
    defaultValues: event ? eventFormValuesOf(event, timeZone) : NEW_EVENT_VALUES,
  });
  const {
    control,
    handleSubmit,
    setError,
    getValues,
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
    const maxTickets = totalTickets(values);
    const maxPerBuyer =
      values.maxPerBuyer ?? (event && event.maxPerBuyer !== maxTickets ? maxTickets : undefined);
    try {
      await save.mutateAsync({ ...values, date, maxPerBuyer, image: image.file });
      notify(isEdit ? 'Event updated successfully!' : 'Event created successfully!', 'success');
      navigate(paths.creatorMyEvents);
    } catch (error) {
      reportSubmitError(error, {
        setError,
        fields: eventFieldNames(getValues('ticketTypes')?.length ?? 0),
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
        <TicketTypesFields
          form={form}
          timeZone={timeZone}
          firstTypeId={event?.ticketTypes[0]?.id}
          priceLabel={isEdit ? 'Price U$D' : 'Price'}
        />
        <div className="grid gap-6 sm:grid-cols-2">
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

/** A yes-or-no field of the form. */
function SwitchField({
  control,
  name,
  label,
  description,
}: {
  control: EventForm['control'];
  name: 'isActive' | 'replayEnabled';
  label: string;
  description: string;
}) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <ToggleField
          label={label}
          description={description}
          checked={field.value}
          onChange={field.onChange}
        />
      )}
    />
  );
}
