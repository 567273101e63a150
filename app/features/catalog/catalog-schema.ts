import { z } from "~/utils/zod";
import {
  PAGE_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  SEARCH_MAX_LENGTH,
  SORT_VALUES,
  type SortValue,
} from "./catalog-vocabulary";

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
 * PostgreSQL cannot store in text) are refused rather than silently dropped.
 */
const queryText = (name: string, max: number) =>
  z
    .string()
    .max(max, `${name} must be at most ${max} characters.`)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
    .regex(/^[^\u0000-\u001f\u007f]*$/, `${name} must not contain control characters.`);

/** Filters shared by a page of products and the count. */
export const catalogFiltersSchema = z.object({
  search: optional(queryText("search", SEARCH_MAX_LENGTH).transform((value) => value.trim())),
  category: optional(queryText("category", 100)),
  band: optional(queryText("band", 100)),
  range: optional(
    z
      .string()
      .regex(/^\d+(\.\d{1,2})?$/, "range must be a price of 0 or more, such as 50 or 49.99.")
      .transform(Number)
      .pipe(z.number().max(1_000_000, "range must be at most 1000000.")),
  ),
});

export const catalogQuerySchema = catalogFiltersSchema.extend({
  page: optional(wholeNumber("page", 1, PAGE_MAX)),
  size: optional(wholeNumber("size", 1, PAGE_SIZE_MAX)),
  sort: optional(z.enum(SORT_VALUES, { error: `sort must be one of ${SORT_VALUES.join(", ")}.` })),
});

export type CatalogFilters = {
  search?: string;
  category?: string;
  band?: string;
  /** Maximum price; 0 or absent means no limit. */
  range?: number;
};

export type CatalogQuery = CatalogFilters & {
  page: number;
  size: number;
  sort?: SortValue;
};

export interface CatalogParameterError {
  code: "invalid_parameter";
  message: string;
  field: string;
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: CatalogParameterError };

const QUERY_PARAMETERS = ["page", "size", "sort", "search", "category", "band", "range"] as const;

/** Turns URLSearchParams into a plain object, refusing a parameter given twice. */
function singleValues(
  params: URLSearchParams,
  names: readonly string[],
): ParseResult<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const name of names) {
    const all = params.getAll(name);
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

/** Parses the query of `/all-products` and of the shop page. */
export function parseCatalogQuery(params: URLSearchParams): ParseResult<CatalogQuery> {
  const raw = singleValues(params, QUERY_PARAMETERS);
  if (!raw.ok) return raw;
  const result = catalogQuerySchema.safeParse(raw.value);
  if (!result.success) return { ok: false, error: firstIssue(result.error) };
  const { page = 1, size = PAGE_SIZE_DEFAULT, ...filters } = result.data;
  return { ok: true, value: { ...normaliseFilters(filters), page, size, sort: result.data.sort } };
}

/** Parses the query of `/counts`: the filters only; paging and sort are ignored. */
export function parseCatalogFilters(params: URLSearchParams): ParseResult<CatalogFilters> {
  const raw = singleValues(params, ["search", "category", "band", "range"]);
  if (!raw.ok) return raw;
  const result = catalogFiltersSchema.safeParse(raw.value);
  if (!result.success) return { ok: false, error: firstIssue(result.error) };
  return { ok: true, value: normaliseFilters(result.data) };
}

/** Drops filters that filter nothing, so equal queries have equal cache keys. */
function normaliseFilters(filters: CatalogFilters): CatalogFilters {
  const normalised: CatalogFilters = {};
  if (filters.search) normalised.search = filters.search;
  if (filters.category) normalised.category = filters.category;
  if (filters.band) normalised.band = filters.band;
  if (filters.range && filters.range > 0) normalised.range = filters.range;
  return normalised;
}

/** A product as the API and the shop page show it. */
export interface Product {
  id: number;
  name: string;
  image: string;
  price: number;
  ratings: number;
  bandName: string;
  category: string;
  /** ISO 8601. */
  creationDate: string;
  description: string;
}
