/**
 * Money as the shop counts it: a whole number of the currency's minor units
 * (cents for USD and EUR, yen for JPY, fils for KWD) with its ISO 4217 code.
 * Every sum, line total and share is made here in integers; a decimal appears
 * only as text, at the edges (an entry field, the API's `price`, a display),
 * so no amount ever passes through float arithmetic.
 *
 * Browser-safe: cards and the cart format with the same functions the server
 * uses for emails, so what a shopper sees is what an email says.
 */

/** An ISO 4217 code in capitals, "USD". */
export type CurrencyCode = string;

export interface Money {
  /** Whole minor units: 1250 is 12.50 USD, or 1,250 JPY. */
  readonly minor: number;
  readonly currency: CurrencyCode;
}

const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/** `code` is a currency Intl can write (ISO 4217, in capitals). */
export function isCurrencyCode(code: string): boolean {
  return KNOWN_CURRENCIES.has(code);
}

/** A locale Intl knows as given ("en-US"), not one it falls back from. */
export function isKnownLocale(locale: string): boolean {
  try {
    return Intl.NumberFormat.supportedLocalesOf([locale]).length === 1;
  } catch {
    return false;
  }
}

const MINOR_DIGITS = new Map<CurrencyCode, number>();

/** How many decimals the currency's minor unit has: JPY 0, USD and EUR 2, KWD 3 (ISO 4217, as Intl knows it). */
export function minorDigitsOf(currency: CurrencyCode): number {
  let digits = MINOR_DIGITS.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
      .maximumFractionDigits as number;
    MINOR_DIGITS.set(currency, digits);
  }
  return digits;
}

/** An amount, checked: a fraction of a minor unit, or past what a double holds exactly, is a bug. */
export function money(minor: number, currency: CurrencyCode): Money {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not a whole number of minor units`);
  return { minor, currency };
}

function sameCurrency(a: Money, b: Money): void {
  if (a.currency !== b.currency) throw new TypeError(`cannot combine ${a.currency} with ${b.currency}`);
}

/** The sum of amounts in one currency; none is zero. */
export function sumMoney(currency: CurrencyCode, amounts: readonly Money[]): Money {
  let minor = 0;
  for (const amount of amounts) {
    sameCurrency({ minor: 0, currency }, amount);
    minor += amount.minor;
  }
  return money(minor, currency);
}

/** A unit price times a whole quantity (a line's total). */
export function timesQuantity(unit: Money, quantity: number): Money {
  if (!Number.isSafeInteger(quantity)) throw new RangeError(`${quantity} is not a whole quantity`);
  return money(unit.minor * quantity, unit.currency);
}

/** -1, 0 or 1, as a sort wants it. */
export function compareMoney(a: Money, b: Money): -1 | 0 | 1 {
  sameCurrency(a, b);
  return a.minor < b.minor ? -1 : a.minor > b.minor ? 1 : 0;
}

/**
 * An amount split across parts in proportion to whole-number weights, by
 * largest remainder: each part gets its floor share, and the minor units left
 * go one each to the parts with the largest remainders (the first on a tie).
 * The parts always add up to the whole, to the minor unit. A discount spread
 * over an order's lines, or a tax over its rates, is split this way.
 */
export function allocateMoney(whole: Money, weights: readonly number[]): Money[] {
  if (weights.length === 0) throw new RangeError("allocate needs at least one part");
  if (weights.some((weight) => !Number.isSafeInteger(weight) || weight < 0)) {
    throw new RangeError("weights are whole numbers of 0 or more");
  }
  // BigInt: an amount times a weight passes 2^53 long before either does.
  const total = weights.reduce((sum, weight) => sum + BigInt(weight), 0n);
  if (total === 0n) throw new RangeError("weights add up to 0");
  const amount = BigInt(whole.minor);
  const sign = amount < 0n ? -1n : 1n;
  const magnitude = amount * sign;
  const shares = weights.map((weight) => (magnitude * BigInt(weight)) / total);
  const remainders = weights.map((weight, index) => ({ index, rest: (magnitude * BigInt(weight)) % total }));
  let left = magnitude - shares.reduce((sum, share) => sum + share, 0n);
  remainders.sort((a, b) => (a.rest === b.rest ? a.index - b.index : a.rest > b.rest ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    shares[index] = (shares[index] as bigint) + 1n;
    left -= 1n;
  }
  return shares.map((share) => money(Number(share * sign), whole.currency));
}

/** The amount as a plain decimal, "12.50", "-0.05", "1250" (JPY): made from the integer's digits. */
export function decimalText({ minor, currency }: Money): string {
  return unitsText(minor, minorDigitsOf(currency));
}

/** Whole units of 10^-digits as a plain decimal: 1250 with 2 digits is "12.50", 57500 with 4 is "5.7500". */
export function unitsText(units: number, digits: number): string {
  const sign = units < 0 ? "-" : "";
  const text = String(Math.abs(units));
  if (digits === 0) return sign + text;
  const padded = text.padStart(digits + 1, "0");
  return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
}

/**
 * "12.5" or "12" as minor units of `currency` (1250 for USD), read as text:
 * no float. Undefined when it is not a plain non-negative decimal or has more
 * decimals than the currency's minor unit (0.5 JPY is no amount).
 */
export function minorOfDecimalText(text: string, currency: CurrencyCode): number | undefined {
  return unitsOfDecimalText(text, minorDigitsOf(currency));
}

/**
 * "8.875" as whole units of 10^-digits (88,750 with 4 digits), read as text:
 * undefined when it is not a plain non-negative decimal or has more decimals.
 */
export function unitsOfDecimalText(text: string, digits: number): number | undefined {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const [, whole = "0", fraction = ""] = match;
  if (fraction.length > digits) return undefined;
  const minor = Number(whole + fraction.padEnd(digits, "0"));
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/** The whole major units of an amount, the rest dropped: a chart's axis ticks ($1,234 for 123,456 cents). */
export function wholeUnitsOf(amount: Money): number {
  const [whole = "0"] = decimalText(amount).split(".");
  return Number(whole);
}

/** The API's decimal number for an amount, 12.5 for 1250 cents: parsed from its exact text. */
export const decimalAmount = (amount: Money): number => Number(decimalText(amount));

const FORMATS = new Map<string, Intl.NumberFormat>();

function formatFor(locale: string, currency: CurrencyCode, whole: boolean): Intl.NumberFormat {
  const key = `${locale}|${currency}|${whole}`;
  let format = FORMATS.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: "currency",
      currency,
      ...(whole ? { minimumFractionDigits: 0, maximumFractionDigits: 0 } : {}),
    });
    FORMATS.set(key, format);
  }
  return format;
}

/**
 * The amount as a shopper of the shop's locale reads it: "$1,234.50" (en-US,
 * USD), "12,50 €" (de-DE, EUR), "￥1,250" (ja-JP, JPY). Intl takes the exact
 * decimal text, so even the dearest amount is written to the minor unit.
 */
export function formatMoney(amount: Money, locale: string): string {
  // A string is formatted as an exact decimal (Intl.NumberFormat v3); the type still says number.
  return formatFor(locale, amount.currency, false).format(decimalText(amount) as unknown as number);
}

/** Whole major units as the price slider writes a step: "$150", "150 €". */
export function formatWholeAmount(whole: number, currency: CurrencyCode, locale: string): string {
  return formatFor(locale, currency, true).format(whole);
}

/** The shop's currency and the locale it writes amounts in (SHOP_CURRENCY, SHOP_LOCALE). */
export interface ShopMoney {
  currency: CurrencyCode;
  locale: string;
}

/**
 * The most minor units a decimal amount allows, for a price cap: 49.99 is 4,999
 * cents, or 49 yen (a cap of 49.99 yen lets through nothing dearer than 49).
 * Read from the number's own digits (String writes the shortest decimal that
 * reads back as the same number), never multiplied as a float.
 */
export function minorAtMost(amount: number, currency: CurrencyCode): number {
  if (!Number.isFinite(amount) || amount < 0) throw new RangeError(`${amount} is no amount`);
  // Below a millionth, String writes an exponent: no currency has a minor unit that small.
  const text = amount < 1e-6 ? "0" : String(amount);
  if (text.includes("e")) throw new RangeError(`${amount} is past any price`);
  const [whole = "0", fraction = ""] = text.split(".");
  const digits = minorDigitsOf(currency);
  return Number(whole + fraction.slice(0, digits).padEnd(digits, "0"));
}
