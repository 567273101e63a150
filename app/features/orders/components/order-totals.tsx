import type { TaxAmount } from "~/commerce/checkout-quote";
import { useAmountFormat } from "~/commerce/use-money";
import { taxLabel } from "../order-format";

interface OrderTotalsProps {
  order: {
    subtotalCents: number;
    shippingCents: number;
    totalCents: number;
    taxes: TaxAmount[];
    pricesIncludeTax: boolean;
    currency: string;
    /** The shipping line's label: "Standard shipping". */
    shippingMethod: string;
  };
  className: string;
  totalClassName: string;
}

/**
 * The taxes by rate, as rows of the totals' list: added ("Tax, Ohio 5.75 %")
 * before the total, or contained ("Includes tax, Germany 19 %") after it. A
 * 0 % rate is listed too: the shopper sees no tax is due, not that it was forgotten.
 */
function TaxRows({
  taxes,
  included,
  currency,
}: {
  taxes: readonly TaxAmount[];
  included: boolean;
  /** The order's currency; the shop's when not given. */
  currency?: string;
}) {
  const formatAmount = useAmountFormat();
  return taxes.map((tax) => (
    <div key={tax.name} className={`flex justify-between gap-4 ${included ? "text-sm text-slate-700" : ""}`}>
      <dt className={included ? "" : "text-slate-700"}>{taxLabel(tax, included)}</dt>
      <dd className="tabular-nums">{formatAmount(tax.amount, currency)}</dd>
    </div>
  ));
}

/** An order's subtotal, shipping and total, in the currency it was placed in: the shopper's page and the back office's. */
export function OrderTotals({ order, className, totalClassName }: OrderTotalsProps) {
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
      {order.pricesIncludeTax ? null : (
        <TaxRows taxes={order.taxes} included={false} currency={order.currency} />
      )}
      <div className={`flex justify-between gap-4 ${totalClassName}`}>
        <dt>Total</dt>
        <dd className="tabular-nums">{formatAmount(order.totalCents, order.currency)}</dd>
      </div>
      {order.pricesIncludeTax ? <TaxRows taxes={order.taxes} included currency={order.currency} /> : null}
    </dl>
  );
}
