import type { PageOption, PageVariant, ProductVariants } from "../core/product-variants.server";

/**
 * Which variant a product page shows (docs/decisions/0045): the one its
 * address names (`?variant=<id>`), the one its option form asked for
 * (`option1`–`option3`, a GET that works without JavaScript), or the first
 * in stock. Each option value says whether, with the other values chosen,
 * it is there to buy, sold out, or not made at all — in words, not colour.
 */

export type ValueState = "available" | "sold-out" | "not-made";

export interface VariantChoice {
  /** The variant shown; null when the values chosen are a combination the shop does not make. */
  chosen: PageVariant | null;
  /** The value chosen for each option (null: none yet). */
  selected: (string | null)[];
  /** Each option's values with what choosing it (the other values kept) would show. */
  options: { name: string; values: (PageOption["values"][number] & { state: ValueState })[] }[];
  /** Where the option form's values belong: the chosen variant's own address, to share. */
  redirectTo: string | null;
}

const OPTION_PARAMS = ["option1", "option2", "option3"] as const;

const idOf = (text: string | null): number | null =>
  text !== null && /^\d{1,9}$/.test(text) ? Number(text) : null;

/** The variant a page's address and option form ask for, and each option value's state. */
export function chooseVariant(
  product: ProductVariants,
  params: URLSearchParams,
  path: string,
): VariantChoice {
  const { options, variants } = product;
  const named = variants.find((variant) => variant.id === idOf(params.get("variant")));
  const asked = OPTION_PARAMS.slice(0, options.length).map((name) => params.get(name));
  const formSent = asked.some((value) => value !== null);
  let chosen: PageVariant | null;
  let redirectTo: string | null = null;
  if (formSent) {
    chosen = variants.find((variant) => variant.values.every((value, at) => value === asked[at])) ?? null;
    if (chosen) redirectTo = addressOf(path, params, chosen.id);
  } else {
    chosen = named ?? variants.find((variant) => variant.stock > 0) ?? variants[0] ?? null;
  }
  const selected = formSent ? asked : options.map((_, at) => chosen?.values[at] ?? null);
  return {
    chosen,
    selected,
    redirectTo,
    options: options.map((option, position) => ({
      ...option,
      values: option.values.map((choice) => ({
        ...choice,
        state: stateOf(variants, selected, position, choice.value),
      })),
    })),
  };
}

/** Whether `value` for the option at `position`, the other chosen values kept, is there to buy. */
function stateOf(
  variants: PageVariant[],
  selected: (string | null)[],
  position: number,
  value: string,
): ValueState {
  const matching = variants.filter((variant) =>
    variant.values.every((own, at) =>
      at === position ? own === value : selected[at] == null || own === selected[at],
    ),
  );
  if (matching.length === 0) return "not-made";
  return matching.some((variant) => variant.stock > 0) ? "available" : "sold-out";
}

/** The page's address naming the variant, its other parameters (a review page, the listing it came from) kept. */
function addressOf(path: string, params: URLSearchParams, variantId: number): string {
  const kept = new URLSearchParams(params);
  for (const name of OPTION_PARAMS) kept.delete(name);
  kept.set("variant", String(variantId));
  return `${path}?${kept}`;
}
