import { type FieldMetadata, getSelectProps } from "@conform-to/react";
import type { ButtonHTMLAttributes } from "react";
import { Field } from "~/components/forms/field";
import { buttonClasses } from "~/components/ui/button";
import type { CheckoutFormFields } from "../checkout-schema";

/** A country's regions, read as the list's own key only: a country typed as `__proto__` has none. */
export const regionChoiceOf = (regions: RegionLists, country: string): RegionLists[string] | undefined =>
  Object.hasOwn(regions, country) ? regions[country] : undefined;

export type RegionLists = Record<string, { label: string; choices: { code: string; name: string }[] }>;

export interface CheckoutAddressProps {
  meta: FieldMetadata<CheckoutFormFields["shippingAddress"]>;
  countries: { code: string; name: string }[];
  /** Each country that needs a region: what it is called ("State") and its regions. */
  regions: RegionLists;
  /** The country chosen now: with JavaScript, as the shopper changes it; without, as the page was sent. */
  country: string;
  onCountryChange: (country: string) => void;
  /** The region chosen, as the shopper changes it: a region may be taxed or shipped to apart from its country. */
  onRegionChange: (region: string) => void;
  /**
   * Without JavaScript, the props of the "Update for this country" button (a submit
   * that shows the chosen country's regions); null once the list follows the
   * country by itself.
   */
  updateButton: ButtonHTMLAttributes<HTMLButtonElement> | null;
  /** The field to focus as the page comes back: the first in error, or the one an Update is about. */
  focus: string | undefined;
}

const SELECT =
  "block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm outline-none focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30";

/**
 * The shipping address: name, lines, city, postal code, country, and the
 * region (state, province) for a country that needs one. With JavaScript
 * the region list follows the country at once; without it, the country's
 * "Update for this country" button shows the page again with that country's list,
 * everything typed kept. Most shoppers never need it: the page opens on the
 * browser's country, with its list already there.
 */
export function CheckoutAddress({
  meta,
  countries,
  regions,
  country,
  onCountryChange,
  onRegionChange,
  updateButton,
  focus,
}: CheckoutAddressProps) {
  const address = meta.getFieldset();
  const focusOn = (name: string) => (focus === name ? { autoFocus: true } : {});
  const regionList = regionChoiceOf(regions, country);
  return (
    <fieldset className="space-y-5 rounded-xl border border-slate-200 bg-white p-5">
      <legend className="px-1 text-lg font-bold text-slate-900">Shipping address</legend>
      <Field
        {...focusOn(address.name.name)}
        meta={address.name}
        label="Full name"
        autoComplete="shipping name"
      />
      <Field
        {...focusOn(address.line1.name)}
        meta={address.line1}
        label="Address"
        autoComplete="shipping address-line1"
      />
      <Field meta={address.line2} label="Address line 2 (optional)" autoComplete="shipping address-line2" />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          {...focusOn(address.city.name)}
          meta={address.city}
          label="City"
          autoComplete="shipping address-level2"
        />
        <Field
          {...focusOn(address.postalCode.name)}
          meta={address.postalCode}
          label="Postal code"
          autoComplete="shipping postal-code"
        />
      </div>
      <div>
        <Select
          meta={address.country}
          label="Country"
          autoComplete="shipping country"
          autoFocus={focus === address.country.name}
          onChange={onCountryChange}
        >
          {countries.map((choice) => (
            <option key={choice.code} value={choice.code}>
              {choice.name}
            </option>
          ))}
        </Select>
        {updateButton ? (
          <button {...updateButton} className={buttonClasses("secondary", "sm", "mt-3")}>
            Update for this country
          </button>
        ) : null}
      </div>
      {regionList ? (
        <Select
          // A new list for each country: nothing chosen from the one before.
          key={country}
          meta={address.region}
          label={regionList.label}
          autoComplete="shipping address-level1"
          autoFocus={focus === address.region.name}
          onChange={onRegionChange}
        >
          <option value="">{`Choose a ${regionList.label.toLowerCase()}`}</option>
          {regionList.choices.map((choice) => (
            <option key={choice.code} value={choice.code}>
              {choice.name}
            </option>
          ))}
        </Select>
      ) : null}
    </fieldset>
  );
}

interface SelectProps {
  meta: FieldMetadata<string | undefined>;
  label: string;
  autoComplete: string;
  autoFocus: boolean;
  onChange?: (value: string) => void;
  children: React.ReactNode;
}

/** A labelled select with its message beside it (aria-invalid and aria-describedby from Conform). */
function Select({ meta, label, autoComplete, autoFocus, onChange, children }: SelectProps) {
  const error = meta.errors?.[0];
  const { key, ...select } = getSelectProps(meta);
  return (
    <div>
      <label htmlFor={meta.id} className="block text-sm font-semibold text-slate-800">
        {label}
      </label>
      <select
        key={key}
        {...select}
        autoComplete={autoComplete}
        // biome-ignore lint/a11y/noAutofocus: the first field in error of a refused form, or the one an Update was about, as its page comes back
        autoFocus={autoFocus}
        onChange={(event) => onChange?.(event.currentTarget.value)}
        className={`mt-1.5 ${SELECT} ${error ? "border-red-600" : "border-slate-500"}`}
      >
        {children}
      </select>
      {error ? (
        <p id={meta.errorId} className="mt-1.5 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
