import { z } from "~/utils/zod";
import {
  FACET_CHOICES_MAX,
  type FacetChoice,
  FILTER_PARAMETERS,
  PAGE_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  QUERY_PARAMETERS,
  SEARCH_MAX_LENGTH,
  SORT_VALUES,
} from "./catalog-vocabulary";
import { readOptionChoice } from "./option-choices";
import type { SearchWord } from "./search-words";

/**
 * The catalogue's query schema, shared by the shop page and the JSON API.
 * The vocabulary lives in catalog-vocabulary.ts and is re-exported here.
 */
export * from "./catalog-vocabulary";

/** A query-string value: absent and empty both mean "not given". */
function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === "" ? undefined : value), schema.optional());
}

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number from ${min} to ${max}.`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `${name} must be a whole number from ${min} to ${max}.`)
        .max(max, `${name} must be a whole number from ${min} to ${max}.`),
    );

/**
 * Free text from a query string. Control characters (NUL above all, which
 * PostgreSQL cannot store in text) are refused rather than silently dropped,
 * as in every text input (~/utils/zod).
 */
const queryText = (name: string, max: number) =>
  z.string({ label: name }).max(max, `${name} must be at most ${max} characters.`);

/**
 * A facet's chosen values (`band=cycleFit&band=campSafe`): products with any
 * of them. Empty ones are dropped, repeats merged, and the rest put in one
 * order, so equal choices make equal cache keys and URLs.
 */
const facetChoices = (name: string) =>
  z
    .array(queryText(name, 100))
    .max(FACET_CHOICES_MAX, `${name} may be given at most ${FACET_CHOICES_MAX} times.`)
    .transform((values) => [...new Set(values.filter((value) => value !== ""))].sort());

/** The parameters that may repeat; every other one is given at most once. */
const REPEATABLE_PARAMETERS: readonly string[] = ["band", "category", "option"];

/** The filters' fields: a listing's, and the count's. Each of FILTER_PARAMETERS, no other. */
const filterFields = {
  search: optional(queryText("search", SEARCH_MAX_LENGTH).transform((value) => value.trim())),
  category: facetChoices("category"),
  band: facetChoices("band"),
  option: z
    .array(
      queryText("option", 200).refine(
        (choice) => choice === "" || readOptionChoice(choice) !== null,
        "option must be an option's name and one of its values, such as Size:M.",
      ),
    )
    .max(FACET_CHOICES_MAX, `option may be given at most ${FACET_CHOICES_MAX} times.`)
    .transform((values) => [...new Set(values.filter((value) => value !== ""))].sort()),
  range: optional(
    z
      .string()
      .regex(/^\d+(\.\d{1,2})?$/, "range must be a price of 0 or more, such as 50 or 49.99.")
      .transform(Number)
      .pipe(z.number().max(1_000_000, "range must be at most 1000000.")),
  ),
  inStock: optional(
    z
      .literal("1", { error: "inStock must be 1 (in stock only); leave it out for every product." })
      .transform(() => true as const),
  ),
} satisfies Record<(typeof FILTER_PARAMETERS)[number], z.ZodType>;

const queryFields = {
  ...filterFields,
  page: optional(wholeNumber("page", 1, PAGE_MAX)),
  size: optional(wholeNumber("size", 1, PAGE_SIZE_MAX)),
  sort: optional(z.enum(SORT_VALUES, { error: `sort must be one of ${SORT_VALUES.join(", ")}.` })),
} satisfies Record<(typeof QUERY_PARAMETERS)[number], z.ZodType>;

/**
 * Drops filters that filter nothing (an empty search, range 0), so equal
 * queries have equal cache keys. `range` is a maximum price; 0 or absent
 * means no limit.
 */
function withoutNoOpFilters<
  T extends {
    search?: string;
    category: string[];
    band: string[];
    option: string[];
    range?: number;
    inStock?: true;
  },
>({ search, category, band, option, range, inStock, ...rest }: T) {
  return {
    ...rest,
    ...(search ? { search } : {}),
    ...(category.length > 0 ? { category } : {}),
    ...(band.length > 0 ? { band } : {}),
    ...(option.length > 0 ? { option } : {}),
    ...(range && range > 0 ? { range } : {}),
    ...(inStock ? { inStock } : {}),
  };
}

/** The filters of a page of products and of the count (`/counts`). */
const catalogFiltersSchema = z.object(filterFields).transform(withoutNoOpFilters);

/** A page of products (`/all-products`, the shop page): the filters, the order and the page, defaults filled in. */
const catalogQuerySchema = z
  .object(queryFields)
  .transform(({ page = 1, size = PAGE_SIZE_DEFAULT, ...rest }) => ({
    ...withoutNoOpFilters(rest),
    page,
    size,
  }));

export type CatalogFilters = z.output<typeof catalogFiltersSchema>;
export type CatalogQuery = z.output<typeof catalogQuerySchema>;

interface CatalogParameterError {
  code: "invalid_parameter";
  message: string;
  field: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: CatalogParameterError };

/**
 * Turns URLSearchParams into a plain object: a list for each repeatable
 * parameter, a string for every other, refusing one of those given twice.
 */
function rawValues(
  params: URLSearchParams,
  names: readonly string[],
): ParseResult<Record<string, string | string[]>> {
  const values: Record<string, string | string[]> = {};
  for (const name of names) {
    const all = params.getAll(name);
    if (REPEATABLE_PARAMETERS.includes(name)) {
      values[name] = all;
      continue;
    }
    if (all.length > 1) {
      return {
        ok: false,
        error: { code: "invalid_parameter", field: name, message: `${name} must be given at most once.` },
      };
    }
    if (all.length === 1) values[name] = all[0] as string;
  }
  return { ok: true, value: values };
}

function firstIssue(error: z.ZodError): CatalogParameterError {
  const issue = error.issues[0];
  const field = String(issue?.path[0] ?? "query");
  return { code: "invalid_parameter", field, message: issue?.message ?? `${field} is not valid.` };
}

function parse<T>(schema: z.ZodType<T>, names: readonly string[], params: URLSearchParams): ParseResult<T> {
  const raw = rawValues(params, names);
  if (!raw.ok) return raw;
  const result = schema.safeParse(raw.value);
  return result.success ? { ok: true, value: result.data } : { ok: false, error: firstIssue(result.error) };
}

/** Parses the query of `/all-products` and of the shop page. */
export function parseCatalogQuery(params: URLSearchParams): ParseResult<CatalogQuery> {
  return parse(catalogQuerySchema, QUERY_PARAMETERS, params);
}

/** The query of `/suggestions`: what is typed so far (empty: no suggestions). */
const suggestionsQuerySchema = z.object({ search: filterFields.search });

export type SuggestionsQuery = z.output<typeof suggestionsQuerySchema>;

/** Parses the query of `/suggestions`. */
export function parseSuggestionsQuery(params: URLSearchParams): ParseResult<SuggestionsQuery> {
  return parse(suggestionsQuerySchema, ["search"], params);
}

/** Parses the query of `/counts`: the filters only; paging and sort are ignored. */
export function parseCatalogFilters(params: URLSearchParams): ParseResult<CatalogFilters> {
  return parse(catalogFiltersSchema, FILTER_PARAMETERS, params);
}

/** A product as the API and the shop page show it. */
const productSchema = z.object({
  id: z.number().int().positive(),
  name: z.answerString(),
  image: z.answerString().describe("Its picture: a path on this shop, or an http(s) URL."),
  price: z
    .number()
    .min(0)
    .describe("In the shop's currency, with at most its minor unit's decimals (two for USD)."),
  ratings: z
    .number()
    .min(0)
    .max(5)
    .describe(
      "The mean of its published reviews' stars (1 to 5), to one decimal. With no review (`ratingCount` 0): the rating its import gave, or 0.",
    ),
  ratingCount: z
    .number()
    .int()
    .min(0)
    .describe("How many published reviews from verified buyers make `ratings`."),
  bandName: z.answerString().describe("Its brand's value, as the `band` parameter takes it."),
  category: z.answerString().describe("Its category's value, as the `category` parameter takes it."),
  creationDate: z.iso.datetime().describe("When it was added to the catalogue (ISO 8601, UTC)."),
  description: z.answerString(),
  priceMax: z
    .number()
    .min(0)
    .describe(
      "The highest price of its variants: above `price` (the lowest) when they differ, else equal to it.",
    ),
  variantCount: z
    .number()
    .int()
    .min(1)
    .describe(
      "How many variants it is sold in (sizes, colours): more than 1 asks for `variantId` in the cart.",
    ),
  compareAtPrice: z
    .number()
    .min(0)
    .nullable()
    .describe(
      "The “was” price of its cheapest variant, above `price`, while that variant is on sale; null otherwise.",
    ),
});

export type Product = z.infer<typeof productSchema>;

/**
 * A product as the API and the pages give it: with the units on hand, from
 * the process's stock snapshot (docs/decisions/0027), a few seconds old at most.
 */
export const productWithStockSchema = productSchema.extend({
  stock: z
    .number()
    .int()
    .min(0)
    .describe(
      "Units on hand, at most a few seconds old: 0 is sold out. A checkout takes them at the moment it is placed.",
    ),
});

export type ProductWithStock = z.infer<typeof productWithStockSchema>;

/** What `/counts` answers. */
export const productCountSchema = z.object({
  count: z.number().int().min(0).describe("How many products match the filters."),
});

const facetChoiceSchema = z.object({
  value: z.answerString().describe("As the `band` or `category` parameter takes it."),
  label: z.answerString().describe("As the shop shows it."),
  count: z
    .number()
    .int()
    .min(0)
    .describe("How many products choosing it would show, given the other filters (not its own facet's)."),
}) satisfies z.ZodType<FacetChoice>;

/** What `/facets` answers: the count, and every brand and category with what choosing it would show. */
export const listingFacetsSchema = z.object({
  count: productCountSchema.shape.count,
  brands: z.array(facetChoiceSchema),
  categories: z.array(facetChoiceSchema),
  inStock: z
    .number()
    .int()
    .min(0)
    .describe("How many products “In stock only” would show given the other filters (`inStock=1` added)."),
  options: z
    .record(
      z.string(),
      z.array(
        z.object({
          value: z.answerString().describe("As the `option` parameter takes it after the name: `Size:M`."),
          count: z
            .number()
            .int()
            .min(0)
            .describe(
              "How many products choosing it would show, given the other filters (not its own option's values).",
            ),
        }),
      ),
    )
    .describe(
      "The option values of the products on sale, by option name (`Size`, `Colour`): every one, at 0 where the other filters leave none, and the chosen ones.",
    ),
});

export type ListingFacets = z.infer<typeof listingFacetsSchema>;

/** The query parameters of `/all-products` and of the filters alone (`/counts`, `/facets`), as parsed: for the API's description. */
export const catalogQueryFields = queryFields;
export const catalogFilterFields = filterFields;

/** A place a suggestion leads to: a product's page, or the shop filtered by a brand or a category. */
const suggestionSchema = z.object({
  label: z
    .answerString()
    .describe("As the shop shows it: the product's name, or the brand's or category's label."),
  href: z
    .answerString()
    .describe(
      "Where it leads, a path on this shop: the product's page (`/products/12-…`), or the shop filtered by the brand or category (`/?band=campSafe`).",
    ),
});

export type Suggestion = z.infer<typeof suggestionSchema>;

/** One word of a search as the catalogue read it (search-words.ts). */
const searchWordSchema = z.object({
  typed: z.answerString().describe("The word as typed, in lower case: it finds the words it starts."),
  alike: z
    .array(z.answerString())
    .describe(
      "Catalogue words it also finds, whole: those it ends (“phones” → “headphones”), or its close spellings.",
    ),
  corrected: z
    .boolean()
    .describe("True when `alike` are close spellings of a word the catalogue does not have."),
}) satisfies z.ZodType<SearchWord>;

/** What `/suggestions` answers for a search being typed: each list best first, possibly empty. */
export const searchSuggestionsSchema = z.object({
  words: z
    .array(searchWordSchema)
    .describe("The search read word by word, to mark the matches in the labels; empty without a word."),
  products: z.array(suggestionSchema).describe("The best matching products, best first."),
  brands: z.array(suggestionSchema).describe("The brands whose name matches."),
  categories: z.array(suggestionSchema).describe("The categories whose name matches."),
});

export type SearchSuggestions = z.infer<typeof searchSuggestionsSchema>;

/** The query parameter of `/suggestions`, as parsed: for the API's description. */
export const suggestionsQueryFields = suggestionsQuerySchema.shape;

/** How many products of one brand in one category match a search and a price cap: a facet matrix's cell. */
export interface FacetCell {
  bandName: string;
  category: string;
  count: number;
}
