import { describe, expect, it } from "vitest";
import { productStructuredData } from "./product-structured-data";

const PRODUCT = {
  id: 7,
  name: "BlendMaster Pro 900 Blender",
  image: "/images/products/blender.svg",
  price: 89.9,
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

  it("offers a sold-out product as out of stock", () => {
    expect(productStructuredData({ ...PRODUCT, stock: 0 }, WHERE).offers.availability).toBe(
      "https://schema.org/OutOfStock",
    );
  });

  it("claims no rating for a product nobody has rated", () => {
    expect(productStructuredData({ ...PRODUCT, ratings: 0 }, WHERE)).not.toHaveProperty("aggregateRating");
  });
});
