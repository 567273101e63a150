/**
 * Option values as a listing filters and counts them (docs/decisions/0045):
 * `option=Size:M` chooses the products with a live variant in size M. Values
 * chosen for one option are alternatives (M or L), options chosen together
 * must hold for one variant (an M that comes in Red). Plain code with no
 * dependency: the browser builds the filter panel and its links with it, the
 * index and the SQL count with it.
 */

/** A variant's option values by option name (`{ Size: "M", Colour: "Red" }`). */
export type VariantValues = Readonly<Record<string, string>>;

/** The chosen values by option name. */
export type ChosenOptions = ReadonlyMap<string, ReadonlySet<string>>;

/** An option value of the catalogue, and how many products choosing it would show. */
export interface OptionCount {
  name: string;
  value: string;
  count: number;
}

/** How `option` writes a choice: the option's name, a colon, the value (names hold no colon). */
export const optionChoice = (name: string, value: string) => `${name}:${value}`;

/** A choice as `option` writes it, read back; null when it has no colon or nothing before it. */
export function readOptionChoice(choice: string): { name: string; value: string } | null {
  const colon = choice.indexOf(":");
  if (colon <= 0 || colon === choice.length - 1) return null;
  return { name: choice.slice(0, colon), value: choice.slice(colon + 1) };
}

/** The `option` parameter's choices by option name (unreadable ones are refused by the schema first). */
export function chosenOptions(choices: readonly string[] | undefined): ChosenOptions | null {
  if (!choices || choices.length === 0) return null;
  const chosen = new Map<string, Set<string>>();
  for (const choice of choices) {
    const read = readOptionChoice(choice);
    if (!read) continue;
    const values = chosen.get(read.name) ?? new Set<string>();
    values.add(read.value);
    chosen.set(read.name, values);
  }
  return chosen.size > 0 ? chosen : null;
}

/** Whether a variant has one of the chosen values of every chosen option, `except` one of them. */
function variantChosen(variant: VariantValues, chosen: ChosenOptions, except?: string): boolean {
  for (const [name, values] of chosen) {
    if (name === except) continue;
    const value = variant[name];
    if (value === undefined || !values.has(value)) return false;
  }
  return true;
}

/** Whether one of a product's live variants has the chosen values. */
export const productChosen = (variants: readonly VariantValues[], chosen: ChosenOptions) =>
  variants.some((variant) => variantChosen(variant, chosen));

/** The key of a name and value in a count's map. */
export const pairKey = (name: string, value: string) => `${name}\u0000${value}`;

/**
 * The option values one product counts towards: a value of option N when a
 * live variant has it and the values chosen for every other option (a
 * brand's count ignores the brands chosen, likewise an option's).
 */
export function valuesCounted(variants: readonly VariantValues[], chosen: ChosenOptions | null): Set<string> {
  const counted = new Set<string>();
  for (const variant of variants) {
    for (const [name, value] of Object.entries(variant)) {
      if (!chosen || variantChosen(variant, chosen, name)) counted.add(pairKey(name, value));
    }
  }
  return counted;
}

const SIZE_WORDS = ["XXXS", "XXS", "XS", "S", "M", "L", "XL", "XXL", "XXXL", "2XL", "3XL", "4XL"];
const sizeRank = (value: string) => {
  const rank = SIZE_WORDS.indexOf(value.toUpperCase());
  return rank < 0 ? Number.POSITIVE_INFINITY : rank;
};
const textOrder = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

/**
 * The order a facet lists an option's values in: clothing sizes smallest
 * first (S, M, L, XL), then the rest as a person reads them, numbers by
 * their value (39, 40, 41, 100). One order for the index and the SQL, so
 * both answer the same whichever products carry the values.
 */
export function optionValueOrder(a: string, b: string): number {
  const bySize = sizeRank(a) - sizeRank(b);
  if (bySize !== 0 && !Number.isNaN(bySize)) return bySize;
  return textOrder.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Counts by name and value, as `/facets` answers them: options by name, each's values in optionValueOrder. */
export function optionFacets(
  counts: readonly OptionCount[],
): Record<string, { value: string; count: number }[]> {
  const byName = new Map<string, { value: string; count: number }[]>();
  for (const { name, value, count } of counts) {
    const values = byName.get(name) ?? [];
    values.push({ value, count });
    byName.set(name, values);
  }
  const names = [...byName.keys()].sort(textOrder.compare);
  return Object.fromEntries(
    names.map((name) => [name, (byName.get(name) ?? []).sort((a, b) => optionValueOrder(a.value, b.value))]),
  );
}
