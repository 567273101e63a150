import { randomUUID } from "node:crypto";
import type { orders } from "~/db/schema";

type NewOrder = typeof orders.$inferInsert;

/** A shopper's shipping address, valid by the checkout's rules (a UK postal code for GB). */
export const SHOPPER_ADDRESS = {
  name: "Ada Shopper",
  line1: "1 High Street",
  city: "Leeds",
  postalCode: "LS1 1AA",
  country: "GB",
};

/** The checkout form as a shopper without JavaScript sends it (cash on delivery), with what the test changes. */
export function checkoutForm(idempotencyKey: string, changes: Record<string, string> = {}) {
  return {
    idempotencyKey,
    email: "ada@example.com",
    "shippingAddress.name": SHOPPER_ADDRESS.name,
    "shippingAddress.line1": SHOPPER_ADDRESS.line1,
    "shippingAddress.city": SHOPPER_ADDRESS.city,
    "shippingAddress.postalCode": SHOPPER_ADDRESS.postalCode,
    "shippingAddress.country": SHOPPER_ADDRESS.country,
    shippingMethod: "standard",
    paymentMethod: "cash-on-delivery",
    ...changes,
  };
}

/**
 * An order's row as a test writes it straight into the database (no lines, no stock taken):
 * $10.00 and $4.99 shipping by bank transfer to SHOPPER_ADDRESS, with what the test changes.
 */
export function orderRow(
  changes: Partial<NewOrder> & Pick<NewOrder, "number" | "idempotencyScope" | "email">,
): NewOrder {
  return {
    idempotencyKey: randomUUID(),
    requestHash: "test",
    shippingAddress: SHOPPER_ADDRESS,
    shippingMethod: "standard",
    paymentMethod: "bank-transfer",
    subtotalCents: 1000,
    shippingCents: 499,
    totalCents: 1499,
    currency: "USD",
    ...changes,
  };
}
