import { type FieldMetadata, getSelectProps } from "@conform-to/react";
import {
  type CurrencyCode,
  formatMoney,
  isCurrencyCode,
  isKnownLocale,
  minorDigitsOf,
  minorOfDecimalText,
  money,
} from "~/commerce/money";
import { Field } from "~/components/forms/field";
import type { CurrencyChoice } from "../currency-choices";

/** 1,234.50 as `locale` writes it in `currency` (1,234 in a currency without decimals). */
function sampleAmount(currency: CurrencyCode, locale: string): string {
  const minor = minorOfDecimalText(minorDigitsOf(currency) === 0 ? "1234" : "1234.5", currency) as number;
  return formatMoney(money(minor, currency), locale);
}

/**
 * The shop's currency and the locale it writes amounts in, with a sample of
 * what shoppers will read. A change relabels prices (they keep their amount in
 * minor units) and never touches an order already placed: the hint says so
 * before the owner saves.
 */
export function ShopCurrencyFields({
  currency,
  locale,
  choices,
}: {
  currency: FieldMetadata<string>;
  locale: FieldMetadata<string>;
  /** The server's currencies (currency-choices.ts). */
  choices: CurrencyChoice[];
}) {
  const error = currency.errors?.[0];
  const chosen = currency.value && isCurrencyCode(currency.value) ? currency.value : undefined;
  const writtenIn =
    locale.value?.trim() && isKnownLocale(locale.value.trim()) ? locale.value.trim() : undefined;
  return (
    <fieldset className="space-y-5">
      <legend className="text-lg font-bold text-slate-900">Currency</legend>
      <div>
        <label htmlFor={currency.id} className="block text-sm font-semibold text-slate-800">
          Currency
        </label>
        <select
          {...getSelectProps(currency, { ariaDescribedBy: currency.descriptionId })}
          key={currency.key}
          className={`mt-1.5 block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm outline-none focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30 ${error ? "border-red-600" : "border-slate-500"}`}
        >
          {choices.map((choice) => (
            <option key={choice.code} value={choice.code}>
              {choice.label}
            </option>
          ))}
        </select>
        {error ? (
          <p id={currency.errorId} className="mt-1.5 text-sm font-medium text-red-700">
            {error}
          </p>
        ) : null}
        <p id={currency.descriptionId} className="mt-1.5 text-sm text-slate-600">
          Prices keep their amount in the currency’s smallest unit, so check them after a change: 12.50 USD
          becomes 12.50 EUR, or 1,250 JPY. Orders already placed keep their currency; carts are re-priced with
          a note.
        </p>
      </div>
      <Field
        meta={locale}
        label="Locale for amounts"
        autoComplete="off"
        spellCheck={false}
        hint={
          <>
            How amounts are written, as a language tag: en-US writes $1,234.50, de-DE writes 1.234,50 €.
            {chosen && writtenIn ? (
              <>
                {" "}
                Shoppers will read{" "}
                <span className="font-semibold text-slate-900">{sampleAmount(chosen, writtenIn)}</span>.
              </>
            ) : null}
          </>
        }
      />
    </fieldset>
  );
}
