/**
 * The catalogue's search, as the rest of the catalogue and the shop use it:
 * the search port and what keeps it current (product-search.server.ts), the
 * per-client limit on searches, and the change channel. Everything else in
 * this folder is its own business (the linter keeps it so).
 */
export { CATALOG_CHANGED_CHANNEL } from "./index-read.server";
export {
  type CatalogSearch,
  countOf,
  createProductSearch,
  type ProductSearch,
  type SearchQueries,
} from "./product-search.server";
export {
  createSearchRateLimit,
  DEFAULT_SEARCH_RATE_LIMITS,
  type SearchRateLimit,
  searchRefusal,
} from "./search-rate-limit.server";
export { type BackOfficeProduct, findBackOfficeProducts } from "./sql-search.server";
