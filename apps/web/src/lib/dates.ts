/** Whether the instant is still to come; a past event "has a date before now" (spec §4). */
export function isInFuture(iso: string): boolean {
  return Date.parse(iso) > Date.now();
}

const pickerValue = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The local date-time of a `Y-m-d H:i` picker value (spec §9), or null when the text is not one.
 * Rolled-over values such as `2026-02-30` count as invalid rather than as March 2.
 */
export function parsePickerValue(value: string): Date | null {
  const match = pickerValue.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(year, month - 1, day, hour, minute);
  const sameFields =
    date.getFullYear() === year &&
    date.getMonth() === month - 1 &&
    date.getDate() === day &&
    date.getHours() === hour &&
    date.getMinutes() === minute;
  return sameFields ? date : null;
}

/** An ISO instant as the `Y-m-d H:i` local value the picker shows. */
export function toPickerValue(iso: string): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
