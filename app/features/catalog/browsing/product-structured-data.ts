import type { ProductWithStock } from "../core/catalog-schema";

/**
 * A product as search engines read it: schema.org `Product` with its `Offer`
 * and, once someone has rated it, its `AggregateRating` (a product nobody has
 * rated gets none rather than a rating of 0). The shop keeps an average
 * rating but not how many ratings made it, so no count is claimed.
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
  }: { url: string; imageUrl: string; brandLabel: string; categoryLabel: string },
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
      "@type": "Offer",
      url,
      price: product.price.toFixed(2),
      priceCurrency: "USD",
      availability: product.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
      itemCondition: "https://schema.org/NewCondition",
    },
    ...(product.ratings > 0
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: product.ratings.toFixed(1),
            bestRating: "5",
            worstRating: "0",
          },
        }
      : {}),
  };
}
