import { useEffect, useState } from "react";
import { Form, Link, useLocation, useRevalidator } from "react-router";
import { useAmountFormat } from "~/commerce/use-money";
import { buttonClasses } from "~/components/ui/button";
import { useShopperLocale } from "~/utils/locale";
import type { OrderPageData } from "../order-view.server";
import { adminDateTime } from "./admin-order-status";

type CardPayment = NonNullable<OrderPageData["card"]>;

/** How often, and how many times, the page asks again while Stripe's word is awaited (about a minute). */
const LOOK_AGAIN_MS = 2_000;
const LOOKS = 30;

/**
 * A card order's payment on its page: where it stands, in words that never
 * lean on colour, and what the shopper can do — pay (or pay again) on
 * Stripe's page, or wait a moment for Stripe's word after coming back,
 * while the page looks again by itself (and says so) or on a link without
 * JavaScript. The order is never called paid from the return alone: only
 * the shop's record of Stripe's signed webhook says so.
 */
export function CardPaymentStatus({ card }: { card: CardPayment }) {
  const formatAmount = useAmountFormat();
  const locale = useShopperLocale();
  const location = useLocation();
  const when = (iso: string | null) => (iso ? `${adminDateTime(iso, locale)} UTC` : "");
  const amount = formatAmount(card.amountCents);
  const looksLeft = useLookingAgain(card.state === "confirming");
  const waiting = card.state === "confirming";

  const message: Record<CardPayment["state"], string> = {
    "to-pay": `Pay ${amount} by card on Stripe's secure page to complete your order.`,
    confirming:
      looksLeft > 0
        ? "Thank you. We are waiting for Stripe to confirm your payment: this page updates by itself."
        : "We have not heard from Stripe yet. If you paid, your order will show as paid shortly; check again in a minute.",
    failed: "Your card payment did not go through, and nothing was charged. You can try again.",
    left: "You left Stripe's page without paying. Your order is kept for now: pay by card to complete it.",
    unavailable:
      "We could not reach the card payment service just now. Your order is kept: try paying again in a moment.",
    paid: `Paid by card${card.paidAt ? ` on ${when(card.paidAt)}` : ""}.`,
    "refund-pending": `Your payment of ${amount} is being refunded to your card.`,
    refunded: `Refunded ${amount} to your card${card.refundedAt ? ` on ${when(card.refundedAt)}` : ""}.`,
    "not-charged": "Not paid, and nothing was charged.",
  };
  // While Stripe's word is awaited, paying again is offered quietly (it opens the same payment, or a
  // new one if that expired): a shopper who did not finish, or whose answer never comes, is not stuck.
  const canPay = ["to-pay", "failed", "left", "unavailable", "confirming"].includes(card.state);
  return (
    <div className="space-y-3">
      <p role="status" className="text-slate-800">
        {message[card.state]}
      </p>
      {card.dueAt ? (
        <p className="text-sm text-slate-700">
          An unpaid order is cancelled at <time dateTime={card.dueAt}>{when(card.dueAt)}</time>.
        </p>
      ) : null}
      {canPay ? (
        <PayButton payPath={card.payPath} amount={amount} again={card.state !== "to-pay"} quiet={waiting} />
      ) : null}
      {waiting ? (
        <p className="text-sm">
          <Link
            to={location.pathname + location.search}
            className="font-semibold text-indigo-700 underline underline-offset-4"
          >
            Check again
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/** A plain form (the browser follows the redirect to Stripe's page itself, as it would without JavaScript). */
function PayButton({
  payPath,
  amount,
  again,
  quiet,
}: {
  payPath: string;
  amount: string;
  again: boolean;
  quiet: boolean;
}) {
  return (
    <Form method="post" action={payPath} reloadDocument>
      <button type="submit" className={buttonClasses(quiet ? "secondary" : "primary")}>
        {again ? `Pay ${amount} by card again` : `Pay ${amount} by card`}
      </button>
    </Form>
  );
}

/** While `on`: reads the page again every few seconds, a minute at most; how many looks are left. */
function useLookingAgain(on: boolean): number {
  const revalidator = useRevalidator();
  const [left, setLeft] = useState(LOOKS);
  useEffect(() => {
    if (!on || left <= 0) return;
    const timer = setTimeout(() => {
      setLeft((count) => count - 1);
      void revalidator.revalidate();
    }, LOOK_AGAIN_MS);
    return () => clearTimeout(timer);
  }, [on, left, revalidator]);
  return left;
}
