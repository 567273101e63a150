import { type CurrencyCode, decimalText, minorAtMost, money } from "~/commerce/money";
import type { ProductWithStock } from "../core/catalog-schema";

/** A review as the product's structured data names it. */
interface ReviewToDescribe {
  rating: number;
  title: string | null;
  body: string | null;
  author: string;
  createdAt: string;
}

/** A decimal with the currency's own decimals: "12.50" (USD), "1250" (JPY). */
const decimalOf = (amount: number, currency: CurrencyCode) =>
  decimalText(money(minorAtMost(amount, currency), currency));

/**
 * A product as search engines read it: schema.org `Product` with its `Offer`
 * (an `AggregateOffer` of its lowest and highest price when its variants differ)
 * and, once buyers have reviewed it, its `AggregateRating` (the mean and the
 * count of its published reviews) and those `Review`s the page shows. A
 * product with no review gets neither, whatever rating an import gave it.
 * React Router's meta writes it as JSON-LD, escaping `<` so a name can never
 * close the script element.
 */
export function productStructuredData(
  product: ProductWithStock,
  {
    url,
    imageUrl,
    brandLabel,
    categoryLabel,
    currency,
    reviews = [],
  }: {
    url: string;
    /** The shop's currency (ISO 4217): what `product.price` is in. */
    currency: CurrencyCode;
    imageUrl: string;
    brandLabel: string;
    categoryLabel: string;
    reviews?: readonly ReviewToDescribe[];
  },
) {
  return {
    "@context": "https://schema.org",
    "@type": "Product",
    "@id": url,
    url,
    name: product.name,
    description: product.description,
    image: [imageUrl],
    sku: String(product.id),
    brand: { "@type": "Brand", name: brandLabel },
    category: categoryLabel,
    offers: {
      url,
      // A product whose variants differ in price offers a range: its lowest and highest.
      ...(product.priceMax > product.price
        ? {
            "@type": "AggregateOffer",
            lowPrice: decimalOf(product.price, currency),
            highPrice: decimalOf(product.priceMax, currency),
            offerCount: product.variantCount,
          }
        : { "@type": "Offer", price: decimalOf(product.price, currency) }),
      priceCurrency: currency,
      availability: product.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      itemCondition: "https://schema.org/NewCondition",
    },
    ...(product.ratingCount > 0 && product.ratings > 0
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: product.ratings.toFixed(1),
            ratingCount: product.ratingCount,
            reviewCount: product.ratingCount,
            bestRating: "5",
            worstRating: "1",
          },
          review: reviews.map((review) => ({
            "@type": "Review",
            author: { "@type": "Person", name: review.author },
            datePublished: review.createdAt.slice(0, 10),
            reviewRating: {
              "@type": "Rating",
              ratingValue: String(review.rating),
              bestRating: "5",
              worstRating: "1",
            },
            ...(review.title ? { name: review.title } : {}),
            ...(review.body ? { reviewBody: review.body } : {}),
          })),
        }
      : {}),
  };
}
