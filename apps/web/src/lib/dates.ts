/** Whether the instant is still to come; a past event "has a date before now" (spec §4). */
export function isInFuture(iso: string): boolean {
  return Date.parse(iso) > Date.now();
}

/** The IANA zone the browser runs in (`Europe/Lisbon`): a new account's zone, and a visitor's. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/**
 * The zones an account can pick: the runtime's list, with `current` added when the list lacks it
 * (`UTC`, an account's default, is a zone every runtime knows but not every list names).
 */
export function timeZoneChoices(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes(current) ? zones : [current, ...zones].sort();
}

type WallClock = { year: number; month: number; day: number; hour: number; minute: number };

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

/** The date and time a clock in `timeZone` shows at the instant. */
function wallClockAt(instant: number, timeZone: string): WallClock {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
    });
    wallClockFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(
    format.formatToParts(instant).map(({ type, value }) => [type, Number(value)]),
  ) as Partial<Record<Intl.DateTimeFormatPartTypes, number>>;
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 0,
    day: parts.day ?? 0,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
  };
}

const asUtc = ({ year, month, day, hour, minute }: WallClock) => Date.UTC(year, month - 1, day, hour, minute);

/** How far `timeZone` is ahead of UTC at the instant, in ms (seconds dropped, as the picker has none). */
function offsetAt(instant: number, timeZone: string): number {
  const minute = Math.floor(instant / 60_000) * 60_000;
  return asUtc(wallClockAt(minute, timeZone)) - minute;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const pickerValue = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/;
const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The instant a `Y-m-d H:i` picker value (spec §9) names in `timeZone`, or null when the text is not
 * one. Rolled-over values such as `2026-02-30`, and an hour a clock change skips, count as invalid
 * rather than as some other time; an hour a clock change repeats is its first time.
 */
export function parsePickerValue(value: string, timeZone: string): Date | null {
  const match = pickerValue.exec(value.trim());
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const wanted: WallClock = { year, month, day, hour, minute };
  const asIfUtc = asUtc(wanted);
  // The zone's offsets a day either side: the time is at one of them (both across a clock change).
  const candidates = [offsetAt(asIfUtc - DAY_MS, timeZone), offsetAt(asIfUtc + DAY_MS, timeZone)]
    .map((offset) => asIfUtc - offset)
    .filter((instant) => {
      const shown = wallClockAt(instant, timeZone);
      return (Object.keys(wanted) as (keyof WallClock)[]).every((key) => shown[key] === wanted[key]);
    });
  return candidates.length ? new Date(Math.min(...candidates)) : null;
}

/**
 * The ISO instant a picker's text names in `timeZone`, for an API's date rule to judge; text that is no
 * date goes through as it is, for that rule to refuse.
 */
export function pickedInstant(value: string, timeZone: string): string {
  return parsePickerValue(value, timeZone)?.toISOString() ?? value;
}

/** An ISO instant as the `Y-m-d H:i` value the picker shows in `timeZone`. */
export function toPickerValue(iso: string, timeZone: string): string {
  const { year, month, day, hour, minute } = wallClockAt(Date.parse(iso), timeZone);
  return `${year}-${pad(month)}-${pad(day)} ${pad(hour)}:${pad(minute)}`;
}
