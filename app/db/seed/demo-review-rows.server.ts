import { inArray } from "drizzle-orm";
import { shopMoney } from "~/commerce/shop-money.server";
import type { Transaction } from "../client.server";
import {
  type NewProductRow,
  orderEvents,
  orderLines,
  orders,
  productVariants,
  reviews,
  users,
} from "../schema";
import { demoOrderScope } from "./demo-orders";
import { DEMO_BUYERS, demoReviewsOf } from "./demo-reviews";

/**
 * The demo's reviews as rows (docs/decisions/0033): the demo buyers'
 * accounts (no password: nobody signs in as them), for each review the
 * buyer's order of that product, shipped, and the review itself — dated
 * between the product's arrival and now. The reviews' trigger (drizzle/0015)
 * makes each product's rating their mean, which is the demo's own rating.
 */

/** Crockford's base 32, as order numbers are written (orders/order-number.ts). */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** "BL-Z0001", …: a demo order's number, from a range random numbers rarely reach. */
function demoOrderNumber(index: number): string {
  let code = "";
  for (let rest = index, digit = 0; digit < 4; digit++, rest = Math.floor(rest / 32)) {
    code = ALPHABET[rest % 32] + code;
  }
  return `BL-Z${code}`;
}

const DEMO_ADDRESS = {
  name: "Demo Buyer",
  line1: "1 Example Street",
  city: "Portland",
  postalCode: "97204",
  country: "US",
};

const HOUR_MS = 60 * 60 * 1000;

type DemoProductRow = NewProductRow & { id: number };

export async function insertDemoReviews(tx: Transaction, products: DemoProductRow[], now: Date) {
  // What an earlier demo left (its products gone, the catalogue seeded again): its demo buyers' orders.
  await tx.delete(orders).where(
    inArray(
      orders.userId,
      DEMO_BUYERS.map((buyer) => buyer.id),
    ),
  );
  const earliest = Math.min(...products.map((product) => (product.creationDate as Date).getTime()));
  await tx
    .insert(users)
    .values(
      DEMO_BUYERS.map((buyer) => ({
        ...buyer,
        emailVerified: true,
        createdAt: new Date(earliest),
        updatedAt: new Date(earliest),
      })),
    )
    .onConflictDoNothing();

  const planned = products.flatMap((product, position) => {
    const arrived = (product.creationDate as Date).getTime();
    const span = Math.max(now.getTime() - arrived, 6 * HOUR_MS);
    const reviewsOfProduct = demoReviewsOf(position, Number(product.ratings));
    const step = span / (reviewsOfProduct.length + 1);
    return reviewsOfProduct.map((review, at) => ({
      product,
      review,
      orderedAt: new Date(Math.min(arrived + step * (at + 0.5), now.getTime() - 2 * HOUR_MS)),
      reviewedAt: new Date(Math.min(arrived + step * (at + 1), now.getTime() - HOUR_MS)),
    }));
  });
  if (planned.length === 0) return;

  const priceCents = (product: DemoProductRow) => product.priceMinor;
  const placed = await tx
    .insert(orders)
    .values(
      planned.map(({ product, review, orderedAt }, at) => ({
        number: demoOrderNumber(at),
        idempotencyScope: demoOrderScope(review.buyer.id),
        idempotencyKey: `demo-order-${product.id}`,
        requestHash: "demo",
        userId: review.buyer.id,
        status: "shipped" as const,
        email: review.buyer.email,
        shippingAddress: { ...DEMO_ADDRESS, name: review.buyer.name },
        shippingMethod: "standard",
        paymentMethod: "bank-transfer",
        currency: shopMoney().currency,
        subtotalCents: priceCents(product),
        shippingCents: 0,
        totalCents: priceCents(product),
        createdAt: orderedAt,
      })),
    )
    .returning({ id: orders.id });
  // Each demo product is one variant (the seed writes none with options): the line names it.
  const variants = await tx
    .select({ id: productVariants.id, productId: productVariants.productId, sku: productVariants.sku })
    .from(productVariants)
    .where(inArray(productVariants.productId, [...new Set(planned.map(({ product }) => product.id))]));
  const variantOf = new Map(variants.map((variant) => [variant.productId, variant]));
  await tx.insert(orderLines).values(
    planned.map(({ product }, at) => ({
      orderId: placed[at]?.id as number,
      productId: product.id,
      variantId: variantOf.get(product.id)?.id as number,
      sku: variantOf.get(product.id)?.sku as string,
      name: product.name,
      unitPriceCents: priceCents(product),
      quantity: 1,
      lineTotalCents: priceCents(product),
    })),
  );
  await tx.insert(orderEvents).values(
    planned.map(({ orderedAt }, at) => ({
      orderId: placed[at]?.id as number,
      fromStatus: "paid",
      toStatus: "shipped",
      actorName: "Backline demo",
      createdAt: new Date(orderedAt.getTime() + HOUR_MS / 2),
    })),
  );
  await tx.insert(reviews).values(
    planned.map(({ product, review, reviewedAt }) => ({
      productId: product.id,
      userId: review.buyer.id,
      rating: review.rating,
      title: review.title,
      body: review.body,
      createdAt: reviewedAt,
      updatedAt: reviewedAt,
    })),
  );
}
