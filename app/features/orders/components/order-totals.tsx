import type { ReactNode } from "react";
import { useAmountFormat } from "~/commerce/use-money";

interface OrderTotalsProps {
  order: {
    subtotalCents: number;
    shippingCents: number;
    totalCents: number;
    currency: string;
    /** The shipping line's label: "Standard shipping". */
    shippingMethod: string;
  };
  className: string;
  totalClassName: string;
  /** Words after "Total" (the shopper's page says the prices include tax). */
  totalNote?: ReactNode;
}

/** An order's subtotal, shipping and total, in the currency it was placed in: the shopper's page and the back office's. */
export function OrderTotals({ order, className, totalClassName, totalNote }: OrderTotalsProps) {
  const formatAmount = useAmountFormat();
  return (
    <dl className={className}>
      <div className="flex justify-between gap-4">
        <dt className="text-slate-700">Subtotal</dt>
        <dd className="tabular-nums">{formatAmount(order.subtotalCents, order.currency)}</dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-slate-700">{order.shippingMethod}</dt>
        <dd className="tabular-nums">
          {order.shippingCents === 0 ? "Free" : formatAmount(order.shippingCents, order.currency)}
        </dd>
      </div>
      <div className={`flex justify-between gap-4 ${totalClassName}`}>
        <dt>Total{totalNote}</dt>
        <dd className="tabular-nums">{formatAmount(order.totalCents, order.currency)}</dd>
      </div>
    </dl>
  );
}
