import { data } from "react-router";

/** The product's id from a back-office address: digits that fit PostgreSQL's integer, else the page does not exist. */
export function productIdOf(params: { productId: string }): number {
  const id = /^\d{1,9}$/.test(params.productId) ? Number(params.productId) : 0;
  if (id < 1) throw data(null, { status: 404 });
  return id;
}
