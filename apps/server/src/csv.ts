import type { Options } from 'csv-stringify';

/**
 * How every CSV the API writes is written (csv-stringify's options), for a spreadsheet: RFC 4180's line
 * ends, and quotes around every field holding a line break (csv-stringify quotes only a whole CRLF, so a
 * lone LF or CR in a name would start a row) or `;` (the separator of spreadsheets in many locales). Text
 * a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab or carriage return first) is prefixed
 * with a quote mark, so a name cannot smuggle one into the reader's spreadsheet. Pure, so the earnings
 * (money) and the attendees both use it.
 */
export const SPREADSHEET_CSV = {
  record_delimiter: 'windows',
  quoted_match: /[;\r\n]/,
  escape_formulas: true,
} as const satisfies Options;
