import type { ApiPart } from "~/utils/openapi";
import { errorResponse, jsonResponse, queryParameters } from "~/utils/openapi.server";
import { z } from "~/utils/zod";
import {
  catalogFilterFields,
  catalogQueryFields,
  listingFacetsSchema,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  productCountSchema,
  productWithStockSchema,
  searchSuggestionsSchema,
  suggestionsQueryFields,
} from "../core/catalog-schema";
import { DEFAULT_SEARCH_RATE_LIMITS } from "../search/index.server";
import { productAnswerSchema } from "./product-api.server";

/** What each query parameter means; its type and limits come from the schema that parses it. */
const PARAMETERS: Record<keyof typeof catalogQueryFields, string> = {
  search:
    "Words to look for in names, brands, categories and descriptions. A word finds those it starts, its other forms (“blenders” finds “blender”) and close spellings; every word must match. A search that is a variant's SKU (any case) finds its product too. Empty: no search.",
  category:
    "A category's value. Repeat it for products in any of several (`category=outdoor&category=fitness`).",
  band: "A brand's value. Repeat it for products of any of several (`band=campSafe&band=cycleFit`).",
  option:
    "An option's name and value, `Size:M`: products with a variant in it. Repeat it for any of several values of one option (`option=Size:M&option=Size:L`); values of different options must hold for one variant (`option=Size:M&option=Colour:Red`: an M that comes in red). `/facets` lists the values.",
  range: "The highest price, in the shop's currency, such as 50 or 49.99. 0 or absent: no limit.",
  inStock:
    "`1`: only products with a unit on hand (not sold out). Absent: every product. Any other value is refused.",
  sort: "`asc` or `dsc` by price, `date-added` newest first, `rating` best rated first. Absent: with a search, products with every word in their name first, then the others, each best rated first; without one, best rated first.",
  page: "Which page, from 1 (the default). Past the last page the answer is an empty array.",
  size: `Products per page, 1 to ${PAGE_SIZE_MAX} (default ${PAGE_SIZE_DEFAULT}).`,
};

const catalogueErrors = {
  "400": errorResponse("A parameter is not valid: `field` (and `fields`) names it."),
  "503": errorResponse(
    "The catalogue cannot be read right now (`catalog_unavailable`), or long searches — more than three words — are queued past their share of the server (`searches_busy`; fewer words are answered at once): try again after `Retry-After` seconds.",
  ),
};

/** Searches are limited per client (search-rate-limit.server.ts). */
const { points, duration } = DEFAULT_SEARCH_RATE_LIMITS;
const tooManySearches = (which: string) => ({
  "429": errorResponse(
    `${which} count against the client's ${points} searches per ${duration} seconds (per address; an IPv6 address by its /64): past them, try again after \`Retry-After\` seconds.`,
  ),
});

const notModified = {
  description: "The answer is the one named by `If-None-Match` (every answer has an `ETag`).",
};

/** The catalogue's calls in the shop's OpenAPI description (/openapi.json). */
export const catalogApi: ApiPart = {
  paths: {
    "/all-products": {
      get: {
        operationId: "listProducts",
        tags: ["Catalogue"],
        summary: "One page of products",
        description:
          "The products matching the filters and the search, in the chosen order, one page at a time, each with its `stock`. Answers may be cached for 10 seconds, stock included.",
        parameters: queryParameters(catalogQueryFields, PARAMETERS),
        responses: {
          "200": jsonResponse(
            "The page's products, in order (empty past the last page).",
            z.array(productWithStockSchema),
          ),
          "304": notModified,
          ...catalogueErrors,
          ...tooManySearches("Calls with a `search`"),
        },
      },
    },
    "/counts": {
      get: {
        operationId: "countProducts",
        tags: ["Catalogue"],
        summary: "How many products match",
        description:
          "The exact number of products matching the same filters as `/all-products` (its paging and order are not taken).",
        parameters: queryParameters(catalogFilterFields, PARAMETERS),
        responses: {
          "200": jsonResponse("The number of matching products.", productCountSchema),
          "304": notModified,
          ...catalogueErrors,
          ...tooManySearches("Calls with a `search`"),
        },
      },
    },
    "/facets": {
      get: {
        operationId: "listFacets",
        tags: ["Catalogue"],
        summary: "The count, and every brand and category with its count",
        description:
          "For the same filters as `/counts`: the number of matching products, each brand and category with the number choosing it would show, and the number “In stock only” (`inStock=1`) would show. A facet's counts ignore its own choices and follow the others', so choosing a second brand adds its products.",
        parameters: queryParameters(catalogFilterFields, PARAMETERS),
        responses: {
          "200": jsonResponse("The count and the brands' and categories' choices.", listingFacetsSchema),
          "304": notModified,
          ...catalogueErrors,
          ...tooManySearches("All calls"),
        },
      },
    },
    "/api/products/{id}": {
      get: {
        operationId: "getProduct",
        tags: ["Catalogue"],
        summary: "One product with its options and variants",
        description:
          "A product on sale with its options (`Size`, `Colour`) and its variants, each with its own SKU, price, “was” price, stock, weight and picture. A product without options has one variant. Stock is read when asked.",
        parameters: [
          {
            name: "id",
            in: "path",
            required: true,
            description: "The product's id.",
            schema: { type: "integer", minimum: 1 },
          },
        ],
        responses: {
          "200": jsonResponse("The product.", productAnswerSchema),
          "400": errorResponse("`id` is not a product's id (`field`: `id`)."),
          "404": errorResponse("No product on sale has this id (missing, or archived by the owner)."),
          "503": errorResponse(
            "The catalogue cannot be read right now: try again after `Retry-After` seconds.",
          ),
        },
      },
    },
    "/suggestions": {
      get: {
        operationId: "suggestSearches",
        tags: ["Catalogue"],
        summary: "Suggestions for a search being typed",
        description:
          "What the shop's search box lists as the shopper types: the best matching products, and the brands and categories whose names match, each with the address it leads to. The search is read as `/all-products` reads it (close spellings included), and how each word was read comes back to mark the matches. At most five products, three brands and three categories; no search: every list is empty.",
        parameters: queryParameters(suggestionsQueryFields, {
          search: "What is typed so far. Empty or absent: no suggestions.",
        }),
        responses: {
          "200": jsonResponse(
            "The suggestions, each list best first and possibly empty.",
            searchSuggestionsSchema,
          ),
          "304": notModified,
          ...catalogueErrors,
          ...tooManySearches("All calls"),
        },
      },
    },
  },
};
