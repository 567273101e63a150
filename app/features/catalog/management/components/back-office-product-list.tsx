import { Form, Link } from "react-router";
import { useAmountFormat } from "~/commerce/use-money";
import {
  BackOfficeTable,
  tableCellClasses,
  tableHeadClasses,
} from "~/components/back-office/back-office-page";
import { buttonClasses } from "~/components/ui/button";
import type { CatalogQuery } from "../../core/catalog-schema";
import { labelOf, type SortValue } from "../../core/catalog-vocabulary";

/**
 * What the list shows of the listing the page's loader reads
 * (catalog/browsing/back-office-listing.server.ts, over the search): named
 * here by its fields, since management never imports browsing or search.
 */
interface Listing {
  query: CatalogQuery;
  /** The low-stock view: products with at most `lowStockAt` units on hand. */
  lowStock: boolean;
  lowStockAt: number;
  products: {
    id: number;
    name: string;
    sku: string;
    bandName: string;
    category: string;
    /** Whole minor units of the shop's currency. */
    priceMinor: number;
    stock: number;
    archived: boolean;
  }[];
  hasNextPage: boolean;
  brands: { value: string; label: string }[];
  categories: { value: string; label: string }[];
}

/**
 * The list's orders, each named for what it does. The shop's own labels
 * ("High to Low" under "Sort By Price") lean on the shop page's heading;
 * here they stand alone. A Record, so a sort added to the catalogue is a
 * type error until it is named here too. No sort is the shop's own order:
 * what a search finds in names first, then the best rated (sql-search.server.ts).
 */
const SORT_LABELS: Record<SortValue, string> = {
  dsc: "Price: high to low",
  asc: "Price: low to high",
  "date-added": "Newest first",
  rating: "Best rated first",
};
const SHOPS_ORDER = "The shop's order: best match, then best rated";

const CONTROL =
  "block h-11 w-full rounded-lg border border-slate-500 bg-white px-3 text-base text-slate-900 shadow-sm " +
  "focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30 focus:outline-none";
const LABEL = "block text-sm font-semibold text-slate-800";

/** The address of this listing with some parameters changed (undefined removes one); page 1 unless named. */
export function listingHref(search: string, changes: Record<string, string | undefined>): string {
  const params = new URLSearchParams(search);
  params.delete("page");
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) params.delete(name);
    else params.set(name, value);
  }
  const query = params.toString();
  return query ? `/admin/products?${query}` : "/admin/products";
}

/**
 * The filters, as a plain GET form over the shop's own parameters
 * (`search`, `band`, `category`, `range`, `inStock`, `sort`) and the back
 * office's `stock=low`: it works without JavaScript, and its address can be
 * bookmarked or shared.
 */
function ProductFilters({ listing }: { listing: Listing }) {
  const { query } = listing;
  return (
    <Form
      method="get"
      action="/admin/products"
      className="rounded-lg border border-slate-300 bg-slate-50 p-4"
    >
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <div>
          <label htmlFor="product-search" className={LABEL}>
            Search
          </label>
          <input
            id="product-search"
            name="search"
            type="search"
            defaultValue={query.search ?? ""}
            className={`mt-1.5 ${CONTROL}`}
          />
        </div>
        <div>
          <label htmlFor="product-brand" className={LABEL}>
            Brand
          </label>
          <select
            id="product-brand"
            name="band"
            defaultValue={query.band?.[0] ?? ""}
            className={`mt-1.5 ${CONTROL}`}
          >
            <option value="">All brands</option>
            {listing.brands.map((brand) => (
              <option key={brand.value} value={brand.value}>
                {brand.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="product-category" className={LABEL}>
            Category
          </label>
          <select
            id="product-category"
            name="category"
            defaultValue={query.category?.[0] ?? ""}
            className={`mt-1.5 ${CONTROL}`}
          >
            <option value="">All categories</option>
            {listing.categories.map((category) => (
              <option key={category.value} value={category.value}>
                {category.label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="product-range" className={LABEL}>
            Highest price
          </label>
          <input
            id="product-range"
            name="range"
            inputMode="decimal"
            defaultValue={query.range ?? ""}
            className={`mt-1.5 ${CONTROL}`}
          />
        </div>
        <div>
          <label htmlFor="product-sort" className={LABEL}>
            Sort by
          </label>
          <select
            id="product-sort"
            name="sort"
            defaultValue={query.sort ?? ""}
            className={`mt-1.5 ${CONTROL}`}
          >
            <option value="">{SHOPS_ORDER}</option>
            {Object.entries(SORT_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="space-y-2">
          <legend className={LABEL}>Stock</legend>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name="inStock"
              value="1"
              defaultChecked={query.inStock === true}
              className="size-4"
            />
            In stock only
          </label>
          <label className="flex items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              name="stock"
              value="low"
              defaultChecked={listing.lowStock}
              className="size-4"
            />
            Low stock only ({listing.lowStockAt} or fewer)
          </label>
        </fieldset>
      </div>
      <div className="mt-4 flex flex-wrap gap-2">
        <button type="submit" className={buttonClasses("primary", "sm")}>
          Show products
        </button>
        <Link to="/admin/products" className={buttonClasses("ghost", "sm")}>
          Clear filters
        </Link>
      </div>
    </Form>
  );
}

/** A product's stock in words as well as figures: colour is never the only sign of a low one. */
function StockCell({ stock, lowStockAt }: { stock: number; lowStockAt: number }) {
  if (stock === 0) return <span className="font-semibold text-red-800">0 · Sold out</span>;
  if (stock <= lowStockAt) return <span className="font-semibold text-amber-900">{stock} · Low</span>;
  return <span>{stock}</span>;
}

function ProductRows({ listing }: { listing: Listing }) {
  const formatAmount = useAmountFormat();
  return (
    <BackOfficeTable caption="Products">
      <thead className={tableHeadClasses}>
        <tr>
          {["Name", "SKU", "Brand", "Category", "Price", "Stock", "Status"].map((heading) => (
            <th key={heading} scope="col" className="px-3 py-2">
              {heading}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {listing.products.map((product) => (
          <tr key={product.id}>
            <td className={tableCellClasses}>
              <Link
                to={`/admin/products/${product.id}`}
                className="font-semibold text-indigo-700 underline underline-offset-4 hover:text-indigo-900"
              >
                {product.name}
              </Link>
            </td>
            <td className={`${tableCellClasses} break-all text-slate-700`}>{product.sku}</td>
            <td className={tableCellClasses}>{labelOf(listing.brands, product.bandName)}</td>
            <td className={tableCellClasses}>{labelOf(listing.categories, product.category)}</td>
            <td className={`${tableCellClasses} tabular-nums`}>{formatAmount(product.priceMinor)}</td>
            <td className={`${tableCellClasses} whitespace-nowrap tabular-nums`}>
              <StockCell stock={product.stock} lowStockAt={listing.lowStockAt} />
            </td>
            <td className={tableCellClasses}>
              {product.archived ? (
                <span className="rounded bg-slate-200 px-2 py-0.5 font-semibold text-slate-800">
                  Archived
                </span>
              ) : (
                "On sale"
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </BackOfficeTable>
  );
}

/** Previous and Next: the list does not count every match (see back-office-listing.server.ts). */
function PageLinks({ listing, search }: { listing: Listing; search: string }) {
  const { page } = listing.query;
  if (page === 1 && !listing.hasNextPage) return null;
  const link = "font-semibold text-indigo-700 underline underline-offset-4 hover:text-indigo-900";
  return (
    <nav aria-label="Product pages" className="flex flex-wrap items-center justify-between gap-3 text-sm">
      {page > 1 ? (
        <Link to={listingHref(search, { page: String(page - 1) })} className={link}>
          Previous page
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-700">Page {page}</span>
      {listing.hasNextPage ? (
        <Link to={listingHref(search, { page: String(page + 1) })} className={link}>
          Next page
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

/** `/admin/products`: the filters, the table and its pages. */
export function BackOfficeProductList({ listing, search }: { listing: Listing; search: string }) {
  return (
    <div className="space-y-6">
      <ProductFilters listing={listing} />
      {listing.products.length === 0 ? (
        <p className="rounded-lg border border-slate-300 p-4 text-slate-800">
          No product matches these filters.{" "}
          <Link to="/admin/products" className="font-semibold text-indigo-700 underline underline-offset-4">
            Show every product
          </Link>
        </p>
      ) : (
        <ProductRows listing={listing} />
      )}
      <PageLinks listing={listing} search={search} />
    </div>
  );
}
