import { data, isRouteErrorResponse, redirect } from "react-router";
import { decimalAmount, money } from "~/commerce/money";
import { lineName } from "~/commerce/options-label";
import { formatAmount, shopMoney } from "~/commerce/shop-money.server";
import { ErrorPage } from "~/components/layout/error-page";
import { accountsFor, servicesContext, shippingRatesOf } from "~/context.server";
import { revalidateUnlessCartChange } from "~/features/cart/cart-revalidation";
import { AddToCart } from "~/features/cart/components/add-to-cart";
import { BuyBox } from "~/features/cart/components/buy-box";
import { unlessUnavailable } from "~/features/catalog/browsing/catalog-api.server";
import {
  parseProductSegment,
  productHref,
  productSlug,
  shopHref,
  shopReturnHref,
} from "~/features/catalog/browsing/catalog-url";
import { ProductGrid } from "~/features/catalog/browsing/components/catalog-results";
import { Breadcrumbs, ProductDetails } from "~/features/catalog/browsing/components/product-details";
import { StockState } from "~/features/catalog/browsing/components/stock-state";
import { VariantPicker } from "~/features/catalog/browsing/components/variant-picker";
import { productStructuredData } from "~/features/catalog/browsing/product-structured-data";
import { chooseVariant, type VariantChoice } from "~/features/catalog/browsing/variant-choice";
import { shopProduct, socialImage } from "~/features/catalog/core/catalog-format";
import { type ProductVariants, productVariantsOf } from "~/features/catalog/core/product-variants.server";
import { shippingAndReturnsNotes } from "~/features/orders/shipping";
import { ReviewsSection } from "~/features/reviews/components/reviews-section";
import { reviewFormAction } from "~/features/reviews/review-form.server";
import { productReviews } from "~/features/reviews/review-listing.server";
import { useFewLeftAt } from "~/utils/few-left";
import { useShopperLocale } from "~/utils/locale";
import type { Route } from "./+types/product";

/**
 * What the page says of a product with options: its choice, and the chosen variant's price (as
 * the catalogue's decimals), "was" price, picture and stock. Null for a product of one variant.
 */
function variantsShown(variants: ProductVariants, choice: VariantChoice, params: URLSearchParams) {
  if (variants.options.length === 0) return null;
  const decimal = (minor: number) => decimalAmount(money(minor, shopMoney().currency));
  const { chosen } = choice;
  return {
    options: choice.options,
    selected: choice.selected,
    keep: [...params].filter(([name]) => name !== "variant" && !/^option[1-3]$/.test(name)),
    chosen: chosen && {
      id: chosen.id,
      price: decimal(chosen.priceMinor),
      compareAtPrice: chosen.compareAtMinor === null ? null : decimal(chosen.compareAtMinor),
      image: chosen.image,
      stock: chosen.stock,
    },
  };
}

/** How many products of the same category the page suggests. */
const RELATED_COUNT = 3;

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const segment = parseProductSegment(params.product);
  if (!segment) throw data(null, { status: 404 });
  const { catalog, baseUrl, database } = context.get(servicesContext);
  const found = await unlessUnavailable(catalog.product(segment.id));
  if (found === null) throw data(null, { status: 503 });
  const product = found.value;
  if (!product) throw data(null, { status: 404 });
  // An old or hand-typed name in the address: move to the product's own, keeping the listing it came from.
  if (segment.slug !== productSlug(product.name)) {
    throw redirect(`${productHref(product)}${url.search}`, 301);
  }

  // The variant shown: the one the address names, or the option form asked for (then named in the
  // address, to share), or the first in stock.
  const variants = await productVariantsOf(database.db, product.id);
  const choice = chooseVariant(variants, url.searchParams, productHref(product));
  if (choice.redirectTo) throw redirect(choice.redirectTo, 303);

  const { user } = await accountsFor(request, context).sessions.current();
  // The structured data describes the first page's reviews, newest first, whichever page is shown.
  const firstPage = url.searchParams.has("reviews") || url.searchParams.has("reviewsPage");
  const [related, facetValues, reviews, newest] = await Promise.all([
    unlessUnavailable(catalog.relatedProducts(product, RELATED_COUNT)),
    unlessUnavailable(catalog.facetValues()),
    productReviews(database.db, product.id, user?.id ?? null, url.searchParams),
    firstPage ? productReviews(database.db, product.id, null, new URLSearchParams()) : null,
  ]);
  const labels = facetValues?.value ?? { brands: [], categories: [] };
  const shown = shopProduct(product, labels);
  const canonicalUrl = new URL(productHref(product), baseUrl).toString();
  const socialImageUrl = new URL(socialImage(product.image), baseUrl).toString();
  return {
    product: shown,
    variants: variantsShown(variants, choice, url.searchParams),
    description: product.description,
    related: (related?.value ?? []).map((other) => shopProduct(other, labels)),
    listingHref: shopReturnHref(url.searchParams),
    shippingNotes: shippingAndReturnsNotes(await shippingRatesOf(context), (minor) =>
      formatAmount(minor, shopMoney().currency),
    ),
    canonicalUrl,
    socialImageUrl,
    structuredData: productStructuredData(product, {
      url: canonicalUrl,
      imageUrl: socialImageUrl,
      brandLabel: shown.brandLabel,
      categoryLabel: shown.categoryLabel,
      currency: shopMoney().currency,
      // The first page's reviews, newest first (hidden ones never).
      reviews: (newest ?? reviews).reviews,
    }),
    reviews,
    reviewDone: url.searchParams.get("review"),
    productPath: productHref(product),
  };
}

/** The product page's review forms (write, change, delete, mark helpful): app/features/reviews. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const segment = parseProductSegment(params.product);
  if (!segment) throw data(null, { status: 404 });
  const { catalog, database } = context.get(servicesContext);
  const found = await unlessUnavailable(catalog.product(segment.id));
  if (found === null) throw data(null, { status: 503 });
  if (!found.value) throw data(null, { status: 404 });
  const { user } = await accountsFor(request, context).sessions.current();
  return reviewFormAction(request, {
    db: database.db,
    userId: user?.id ?? null,
    productId: found.value.id,
    productPath: productHref(found.value),
  });
}

// A cart form sent from this page reads the root's cart count again, not this page's data.
export const shouldRevalidate = revalidateUnlessCartChange;

export function meta({ loaderData }: Route.MetaArgs) {
  if (!loaderData) return [{ title: "Product not found | Backline" }, { name: "robots", content: "noindex" }];
  const { product, description, canonicalUrl, socialImageUrl, structuredData } = loaderData;
  const title = `${product.name} — ${product.brandLabel} | Backline`;
  const summary = description.length > 160 ? `${description.slice(0, 157).trimEnd()}…` : description;
  return [
    { title },
    { name: "description", content: summary },
    { tagName: "link", rel: "canonical", href: canonicalUrl },
    { property: "og:type", content: "product" },
    { property: "og:site_name", content: "Backline" },
    { property: "og:title", content: title },
    { property: "og:description", content: summary },
    { property: "og:url", content: canonicalUrl },
    { property: "og:image", content: socialImageUrl },
    { property: "og:image:width", content: "1200" },
    { property: "og:image:height", content: "900" },
    { property: "og:image:alt", content: product.name },
    // The same price and currency the structured data gives (the lowest, for a range).
    {
      property: "product:price:amount",
      content:
        "price" in structuredData.offers ? structuredData.offers.price : structuredData.offers.lowPrice,
    },
    { property: "product:price:currency", content: structuredData.offers.priceCurrency },
    { "script:ld+json": structuredData },
  ];
}

export default function ProductPage({ loaderData, actionData }: Route.ComponentProps) {
  const { description, related, listingHref, shippingNotes, reviews, reviewDone, productPath, variants } =
    loaderData;
  const chosen = variants?.chosen;
  // The chosen variant's price, picture and stock stand for the product's.
  const product = chosen
    ? {
        ...loaderData.product,
        price: chosen.price,
        image: chosen.image ?? loaderData.product.image,
        stock: chosen.stock,
      }
    : loaderData.product;
  const locale = useShopperLocale();
  const fewLeftAt = useFewLeftAt();
  // The options not chosen yet (a form sent without one), and the variant as the cart will name it.
  const unchosen = variants
    ? variants.options.filter((_, at) => !variants.selected[at]).map((option) => option.name)
    : [];
  const chosenName = variants
    ? lineName({
        name: product.name,
        options: Object.fromEntries(
          variants.options.map((option, at) => [option.name, variants.selected[at] ?? ""]),
        ),
      })
    : product.name;
  const categoryHref = shopHref({ category: [product.category] });
  return (
    <main id="main" className="mx-auto w-full max-w-7xl px-4 pt-6 pb-16 sm:px-6 lg:px-8 lg:pt-10">
      <Breadcrumbs
        items={[
          { label: "Shop", href: listingHref },
          { label: product.categoryLabel, href: categoryHref },
          { label: product.name },
        ]}
      />
      <div className="mt-6">
        <ProductDetails
          product={product}
          description={description}
          locale={locale}
          fewLeftAt={fewLeftAt}
          categoryHref={categoryHref}
          brandHref={shopHref({ band: [product.bandName] })}
          compareAtPrice={chosen?.compareAtPrice ?? null}
          buyBox={
            <div className="space-y-5">
              {variants ? (
                <VariantPicker choice={variants} action={productPath} keep={variants.keep} />
              ) : null}
              <BuyBox
                productId={product.id}
                variantId={chosen?.id}
                productName={chosenName}
                stock={product.stock}
                stockState={
                  variants && !chosen ? (
                    <p className="text-sm font-semibold text-slate-800">
                      {unchosen.length > 0
                        ? `Choose a ${unchosen.join(" and a ")} first.`
                        : "This combination is not made: choose another."}
                    </p>
                  ) : (
                    <StockState stock={product.stock} fewLeftAt={fewLeftAt} />
                  )
                }
                notes={shippingNotes}
                unavailable={variants !== null && !chosen}
              />
            </div>
          }
        />
      </div>
      <ReviewsSection
        reviews={reviews}
        rating={{ mean: product.ratings, count: product.ratingCount }}
        productPath={productPath}
        done={reviewDone}
        answer={actionData && "review" in actionData ? actionData.review : undefined}
      />
      {related.length > 0 ? (
        <section aria-labelledby="related-heading" className="mt-16">
          <h2 id="related-heading" className="text-xl font-bold text-slate-900">
            {`More in ${product.categoryLabel}`}
          </h2>
          <div className="mt-6">
            <ProductGrid
              products={related}
              locale={locale}
              fewLeftAt={fewLeftAt}
              label={`More in ${product.categoryLabel}`}
              eager={false}
              hrefFor={(other) => productHref(other)}
              cardAction={(other) => (
                <AddToCart
                  productId={other.id}
                  productName={other.name}
                  stock={other.stock}
                  chooseAt={other.variantCount > 1 ? productHref(other) : undefined}
                />
              )}
            />
          </div>
        </section>
      ) : null}
    </main>
  );
}

/** A product that is not there is a real 404; a catalogue that cannot be read says so. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 400) {
    const problem = (error.data as { problem?: { message?: string } } | null)?.problem;
    return (
      <ErrorPage
        eyebrow="400"
        title="This address asks for reviews the page cannot show"
        message={`${problem?.message ?? "A reviews parameter is not one the page knows."} Open the product again from the shop.`}
      />
    );
  }
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <ErrorPage
        eyebrow="404"
        title="Product not found"
        message="This product is not in the shop, or no longer. The shop has plenty more to look at."
      />
    );
  }
  return (
    <ErrorPage
      eyebrow="Error"
      title="We couldn't load this product"
      message="The catalogue can't be read right now. Please try again in a moment."
    />
  );
}
