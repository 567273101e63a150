import { useAmountFormat } from "~/commerce/use-money";
import type { Spent } from "../customers.server";

/** What a customer spent: one amount per currency they bought in ("$89.99 + 12,50 €"), or nothing spent in the shop's. */
export function AmountSpent({ spent }: { spent: Spent[] }) {
  const formatAmount = useAmountFormat();
  if (spent.length === 0) return <>{formatAmount(0)}</>;
  return <>{spent.map(({ minor, currency }) => formatAmount(minor, currency)).join(" + ")}</>;
}
