import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { CookieClient } from "./http-client";
import type { ShopProcess } from "./shop-process";
import { SHOPPER_ADDRESS } from "./shopper";

/**
 * What the currency tests do as a shopper or an API client would, against a
 * running shop process: read a page as text, find the demo's blender, fill a
 * cart, check out.
 */

/** The demo's blender: 8,999 minor units in the table, whatever the currency. */
const BLENDER = "BlendMaster Pro 900 Blender";

/** A page's text with Intl's no-break spaces as plain ones ("89,99 €"). */
export const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ").replaceAll("&nbsp;", " ");

export async function json<T>(
  client: CookieClient,
  url: string,
  init?: RequestInit,
): Promise<{ status: number; body: T }> {
  const answer = await client.fetch(url, init);
  return { status: answer.status, body: (await answer.json()) as T };
}

/** A page as a browser shows it, after any redirect (a product's short address goes to its named one). */
export async function pageText(client: CookieClient, url: string): Promise<string> {
  const { response } = await client.follow(url);
  expect(response.status, url).toBe(200);
  return plain(await response.text());
}

/** The blender as the catalogue API answers a search for it: its id and decimal price. */
export async function demoBlender(
  shop: ShopProcess,
  client: CookieClient,
): Promise<{ id: number; price: number }> {
  const found = await json<{ id: number; name: string; price: number }[]>(
    client,
    `${shop.url}/all-products?search=${encodeURIComponent("pro 900 blender")}`,
  );
  const product = found.body.find((candidate) => candidate.name === BLENDER);
  if (!product) throw new Error("the demo catalogue has no blender");
  return product;
}

export async function addToCart(shop: ShopProcess, client: CookieClient, productId: number) {
  const added = await client.fetch(`${shop.url}/api/cart/lines`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ productId, quantity: 1 }),
  });
  expect(added.status).toBe(200);
}

export interface Placed {
  order: { number: string; total: number; currency: string };
  paymentUrl?: string;
}

/** Checks the cart out through the API (201 expected), by bank transfer unless told. */
export async function checkout(
  shop: ShopProcess,
  client: CookieClient,
  { email = `buyer-${randomUUID()}@example.com`, paymentMethod = "bank-transfer" } = {},
): Promise<Placed> {
  const placed = await json<Placed>(client, `${shop.url}/api/checkout`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "Idempotency-Key": randomUUID() },
    body: JSON.stringify({
      email,
      shippingAddress: SHOPPER_ADDRESS,
      shippingMethod: "standard",
      paymentMethod,
    }),
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return placed.body;
}
