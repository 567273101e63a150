import { describe, expect, it } from "vitest";
import { productStructuredData } from "./product-structured-data";

const PRODUCT = {
  id: 7,
  name: "BlendMaster Pro 900 Blender",
  image: "/images/products/blender.svg",
  price: 89.9,
  priceMax: 89.9,
  variantCount: 1,
  compareAtPrice: null,
  ratings: 4.5,
  ratingCount: 12,
  bandName: "blendMaster",
  category: "home appliances",
  creationDate: "2025-03-04T00:00:00.000Z",
  description: "Crushes ice.",
  stock: 12,
};
const WHERE = {
  url: "https://shop.example/products/7-blendmaster-pro-900-blender",
  imageUrl: "https://shop.example/images/products/blender.svg",
  brandLabel: "BlendMaster",
  categoryLabel: "Home appliances",
  currency: "USD",
};

describe("productStructuredData", () => {
  it("describes a Product with its Offer and AggregateRating", () => {
    expect(productStructuredData(PRODUCT, WHERE)).toMatchObject({
      "@context": "https://schema.org",
      "@type": "Product",
      name: "BlendMaster Pro 900 Blender",
      image: ["https://shop.example/images/products/blender.svg"],
      brand: { "@type": "Brand", name: "BlendMaster" },
      offers: {
        "@type": "Offer",
        price: "89.90",
        priceCurrency: "USD",
        url: WHERE.url,
        availability: "https://schema.org/InStock",
      },
      aggregateRating: { "@type": "AggregateRating", ratingValue: "4.5", bestRating: "5" },
    });
  });

  it("offers a product whose variants differ in price as an AggregateOffer, lowest to highest", () => {
    const data = productStructuredData({ ...PRODUCT, price: 24.99, priceMax: 34.5, variantCount: 3 }, WHERE);
    expect(data.offers).toEqual({
      "@type": "AggregateOffer",
      url: WHERE.url,
      lowPrice: "24.99",
      highPrice: "34.50",
      offerCount: 3,
      priceCurrency: "USD",
      availability: "https://schema.org/InStock",
      itemCondition: "https://schema.org/NewCondition",
    });
    expect(productStructuredData(PRODUCT, WHERE).offers).toMatchObject({ "@type": "Offer", price: "89.90" });
  });

  it("offers a sold-out product as out of stock", () => {
    expect(productStructuredData({ ...PRODUCT, stock: 0 }, WHERE).offers.availability).toBe(
      "https://schema.org/OutOfStock",
    );
  });

  it("claims no rating for a product nobody has rated", () => {
    expect(productStructuredData({ ...PRODUCT, ratings: 0, ratingCount: 0 }, WHERE)).not.toHaveProperty(
      "aggregateRating",
    );
  });

  it("claims no rating for an imported one no buyer's review backs", () => {
    const data = productStructuredData({ ...PRODUCT, ratings: 4.9, ratingCount: 0 }, WHERE);
    expect(data).not.toHaveProperty("aggregateRating");
    expect(data).not.toHaveProperty("review");
  });

  it("gives the AggregateRating of the published reviews, with their count, and the reviews shown as Review items", () => {
    const data = productStructuredData(PRODUCT, {
      ...WHERE,
      reviews: [
        {
          rating: 5,
          title: "Smooth",
          body: "Ice in seconds.",
          author: "Ada Lovelace",
          createdAt: "2026-03-04T10:00:00.000Z",
        },
        { rating: 4, title: null, body: null, author: "Bo Smith", createdAt: "2026-03-01T10:00:00.000Z" },
      ],
    });
    expect(data.aggregateRating).toEqual({
      "@type": "AggregateRating",
      ratingValue: "4.5",
      ratingCount: 12,
      reviewCount: 12,
      bestRating: "5",
      worstRating: "1",
    });
    expect(data.review).toEqual([
      {
        "@type": "Review",
        author: { "@type": "Person", name: "Ada Lovelace" },
        datePublished: "2026-03-04",
        reviewRating: { "@type": "Rating", ratingValue: "5", bestRating: "5", worstRating: "1" },
        name: "Smooth",
        reviewBody: "Ice in seconds.",
      },
      {
        "@type": "Review",
        author: { "@type": "Person", name: "Bo Smith" },
        datePublished: "2026-03-01",
        reviewRating: { "@type": "Rating", ratingValue: "4", bestRating: "5", worstRating: "1" },
      },
    ]);
  });

  it("gives the price in the shop's currency, with that currency's decimals", () => {
    expect(productStructuredData(PRODUCT, { ...WHERE, currency: "EUR" }).offers).toMatchObject({
      price: "89.90",
      priceCurrency: "EUR",
    });
    expect(
      productStructuredData({ ...PRODUCT, price: 1250 }, { ...WHERE, currency: "JPY" }).offers,
    ).toMatchObject({
      price: "1250",
      priceCurrency: "JPY",
    });
  });
});
