/**
 * CSV cells a spreadsheet would run as formulas (CSV injection, OWASP): a
 * cell that starts with = + - @, a tab or a carriage return (or the
 * full-width = + - @ that Apple Numbers reads as the plain ones) is written
 * behind a single quote, which spreadsheets take to mean "text". So that an
 * import can undo it without guessing, a cell is quoted exactly when, with
 * its leading quotes set aside, it starts with one of those characters: a
 * value that already starts with a quote and would be quoted gets one more,
 * and a cell read back loses exactly one leading quote when the rest is such
 * a value. `'plain` stays as it is both ways.
 */
const FORMULA_START = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A value as a CSV export writes it: behind a quote when a spreadsheet could run it. */
export function spreadsheetCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A CSV cell as the value spreadsheetCell wrote it from. */
export function spreadsheetValue(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell.slice(1)) ? cell.slice(1) : cell;
}
