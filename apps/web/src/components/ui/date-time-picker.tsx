import flatpickr from 'flatpickr';
import 'flatpickr/dist/flatpickr.min.css';
import './date-time-picker.css';
import { useEffect, useRef } from 'react';
import { Input } from './field';

type DateTimePickerProps = {
  label: string;
  /** The form's field name; also the input's id. */
  name: string;
  /** A `Y-m-d H:i` date-time in `timeZone`, or what the user is typing. */
  value: string;
  /** The zone the value is a time in, named in the hint. */
  timeZone: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  error?: string;
  required?: boolean;
};

/**
 * A date-time field with flatpickr's calendar (spec §2, §9): 12-hour clock, `Y-m-d H:i` values, days
 * before today disabled. Typing stays allowed, and flatpickr never silently throws away what was typed:
 * a day it refuses (a past one, or text that is no date) stays in the field for the form to explain on
 * submit, the same way it explains an hour of today that has already passed.
 */
export function DateTimePicker({ value, onChange, timeZone, ...field }: DateTimePickerProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const onChangeRef = useRef(onChange);
  const typedRef = useRef(value);

  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    const picker = flatpickr(input, {
      enableTime: true,
      time_24hr: false,
      dateFormat: 'Y-m-d H:i',
      minDate: 'today',
      allowInput: true,
      // The native mobile picker would replace this input and lose its label.
      disableMobile: true,
      // Text that is no date is the form's to report, next to the field; flatpickr would only log it.
      errorHandler: () => undefined,
      // Says which days cannot be picked, which flatpickr only shows by colour.
      onDayCreate: (_dates, _dateText, _instance, day: HTMLElement) => {
        if (day.classList.contains('flatpickr-disabled')) day.setAttribute('aria-disabled', 'true');
      },
      onChange: (_dates, dateText, instance) => {
        if (dateText) typedRef.current = dateText;
        else if (typedRef.current) instance.input.value = typedRef.current;
        onChangeRef.current(dateText || typedRef.current);
      },
    });
    return () => picker.destroy();
  }, []);

  return (
    <Input
      ref={inputRef}
      value={value}
      onChange={(event) => {
        typedRef.current = event.target.value;
        onChange(event.target.value);
      }}
      autoComplete="off"
      placeholder="YYYY-MM-DD HH:MM"
      hint={`Pick a day and time (${timeZone}), or type it as YYYY-MM-DD HH:MM (24-hour).`}
      {...field}
    />
  );
}
