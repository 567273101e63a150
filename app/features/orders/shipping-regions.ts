import { iso31662 } from "iso-3166";
import type { AddressSnapshot } from "./order-format";

/**
 * The region (state, province) of a shipping address, for the countries
 * whose addresses need one: ISO 3166-2 codes and names from `iso-3166`, a
 * kept library, not a hand-written table (docs/decisions/0028).
 *
 * A country is here when carriers need the region on the parcel (Google's
 * address data, which browsers' autofill follows, marks it required) and its
 * first-level ISO subdivisions are what that line holds, under names a
 * shopper recognises. Left out for now: Italy and Spain (the address names
 * the province, ISO's second level), Japan and Korea (ISO's romanisations,
 * "Tôkyô", are not what shoppers write), China (ISO lists Hong Kong, Macao
 * and Taiwan, which the country list has as countries of their own).
 */
// A Map, not an object: a country the client sends ("__proto__") is looked up, never inherited.
const REGION_LABELS: ReadonlyMap<string, string> = new Map([
  ["US", "State"],
  ["CA", "Province or territory"],
  ["AU", "State or territory"],
  ["BR", "State"],
  ["MX", "State"],
  ["IN", "State"],
  ["MY", "State"],
]);

export interface RegionChoice {
  /** ISO 3166-2: "US-OR". */
  code: string;
  name: string;
}

const REGIONS = new Map<string, RegionChoice[]>(
  [...REGION_LABELS.keys()].map((country) => [
    country,
    iso31662
      .filter((subdivision) => subdivision.parent === country)
      .map(({ code, name }) => ({ code, name }))
      .sort((a, b) => a.name.localeCompare(b.name, "en")),
  ]),
);

const REGION_NAMES = new Map(
  [...REGIONS.values()].flat().map((region) => [region.code, region.name] as const),
);

/** What the form calls a country's region ("State"), or undefined for a country that needs none. */
export const regionLabel = (country: string): string | undefined => REGION_LABELS.get(country);

/** Whether `region` is one of `country`'s regions (false for a country that needs none). */
export const isRegionOf = (region: string, country: string): boolean =>
  REGIONS.get(country)?.some((choice) => choice.code === region) ?? false;

/** Each country that needs a region: what the form calls it, and its regions by name. */
export function regionChoices(): Record<string, { label: string; choices: RegionChoice[] }> {
  return Object.fromEntries(
    [...REGIONS].map(([country, choices]) => [
      country,
      { label: REGION_LABELS.get(country) as string, choices },
    ]),
  );
}

const COUNTRY_NAMES = new Intl.DisplayNames(["en"], { type: "region" });

/**
 * The address as it goes on a parcel, one line each — the region by its
 * name after the city ("Portland, Oregon 97204"), the country by its English
 * name — the same on the order's page, in its email and in the back office.
 */
export function addressLines(address: AddressSnapshot): string[] {
  let country = address.country;
  try {
    country = COUNTRY_NAMES.of(address.country) ?? address.country;
  } catch {
    // Not a region code Intl knows: the code itself is still the right line.
  }
  const region = address.region ? (REGION_NAMES.get(address.region) ?? address.region) : undefined;
  return [
    address.name,
    address.line1,
    ...(address.line2 ? [address.line2] : []),
    region ? `${address.city}, ${region} ${address.postalCode}` : `${address.city} ${address.postalCode}`,
    country,
  ];
}
