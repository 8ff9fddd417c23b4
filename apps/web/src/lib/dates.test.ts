import { describe, expect, it } from 'vitest';
import { parsePickerValue, timeZoneChoices, toPickerValue } from './dates';

describe('picker values in a time zone', () => {
  it('reads the text as a time in the zone, summer and winter', () => {
    expect(parsePickerValue('2030-01-15 19:00', 'Europe/Lisbon')?.toISOString()).toBe(
      '2030-01-15T19:00:00.000Z',
    );
    expect(parsePickerValue('2030-07-15 19:00', 'Europe/Lisbon')?.toISOString()).toBe(
      '2030-07-15T18:00:00.000Z',
    );
    expect(parsePickerValue('2030-03-05 19:30', 'America/Los_Angeles')?.toISOString()).toBe(
      '2030-03-06T03:30:00.000Z',
    );
    expect(parsePickerValue('2030-03-05 19:30', 'Asia/Kolkata')?.toISOString()).toBe(
      '2030-03-05T14:00:00.000Z',
    );
  });

  it('writes an instant as the zone shows it, and reads it back to the same instant', () => {
    const instant = '2030-11-05T09:45:00.000Z';
    for (const zone of ['UTC', 'Europe/Lisbon', 'America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Auckland']) {
      expect(parsePickerValue(toPickerValue(instant, zone), zone)?.toISOString()).toBe(instant);
    }
    expect(toPickerValue(instant, 'America/Los_Angeles')).toBe('2030-11-05 01:45');
  });

  it('reads an hour a clock change repeats as its first time', () => {
    // Los Angeles shows 01:00–02:00 twice on November 3, 2030: first in PDT (UTC−7), then in PST.
    expect(parsePickerValue('2030-11-03 01:45', 'America/Los_Angeles')?.toISOString()).toBe(
      '2030-11-03T08:45:00.000Z',
    );
    // Lisbon shows 01:00–02:00 twice on October 27, 2030: first in WEST (UTC+1), then in WET.
    expect(parsePickerValue('2030-10-27 01:30', 'Europe/Lisbon')?.toISOString()).toBe(
      '2030-10-27T00:30:00.000Z',
    );
  });

  it('refuses a day that does not exist and an hour a clock change skips', () => {
    expect(parsePickerValue('2030-02-30 10:00', 'UTC')).toBeNull();
    // Lisbon moves from 01:00 to 02:00 on the last Sunday of March.
    expect(parsePickerValue('2030-03-31 01:30', 'Europe/Lisbon')).toBeNull();
    expect(parsePickerValue('next friday', 'UTC')).toBeNull();
  });
});

describe('time zone choices', () => {
  it("are the runtime's zones, with the account's own added when the list lacks it", () => {
    const zones = Intl.supportedValuesOf('timeZone');
    expect(timeZoneChoices('Europe/Lisbon')).toEqual(zones);
    expect(timeZoneChoices('Etc/GMT+5')).toContain('Etc/GMT+5');
    expect(timeZoneChoices('Etc/GMT+5')).toHaveLength(
      zones.includes('Etc/GMT+5') ? zones.length : zones.length + 1,
    );
  });
});
