import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, redirectDocument } from "react-router";
import { readForm } from "~/utils/form-submission.server";
import { CARD_UNAVAILABLE, type CheckoutVisitor, placeCheckout } from "./checkout-api.server";
import { checkoutFormSchema } from "./checkout-schema";
import { quoteRefusalAt } from "./quote-refusal.server";

/**
 * The checkout page's form, sent: checked against the API's own schema,
 * placed as the API places it (placeCheckout), and answered as a page is —
 * the order's page on success (post/redirect/get), the form back with its
 * messages otherwise, what was typed kept. The form carries the total its
 * page showed: an order that comes to another is not placed, and the page
 * comes back with the new total to confirm. Its Update buttons (for pages
 * without JavaScript) send the form to be shown again, re-priced for the
 * shipping method or with the country's regions, and place nothing.
 */

const SHORT =
  "Some products do not have that many left, so nothing was ordered. Change the quantities in your cart and place the order again.";
const EMPTY = "Your cart is empty: add a product before checking out.";
const TOTAL_CHANGED =
  "The total changed since this page was shown, so nothing was ordered. Check your order and its new total, then place it again.";
const KEY_REUSED =
  "This checkout was already sent with other details. Reload the page to check out with these ones.";

export async function checkoutFormAction(
  request: Request,
  visitor: CheckoutVisitor,
  /** The shopper's share of checkouts, counted once the form reads well and before it is placed. */
  admit: () => Promise<string | null>,
) {
  const submission = parseWithZod(await readForm(request), { schema: checkoutFormSchema });
  // An Update button (Conform's validate intent on one field, the only case without a status):
  // the form shown again as typed, nothing placed.
  if (submission.status === undefined) {
    return data({ result: submission.reply(), short: [] }, { headers: { "Cache-Control": "no-store" } });
  }
  if (submission.status !== "success") {
    return data({ result: submission.reply(), short: [] }, { status: 400 });
  }
  const refused = await admit();
  if (refused) return refusal(submission.reply({ formErrors: [refused] }), 429);
  const { idempotencyKey, ...checkout } = submission.value;
  const placement = await placeCheckout(visitor, checkout, idempotencyKey);
  switch (placement.outcome) {
    case "placed":
      // Stripe's page (a card order) is another document: not one of the app's routes.
      throw placement.paymentUrl
        ? redirectDocument(placement.next, { status: 303 })
        : redirect(placement.next, { status: 303 });
    case "card-unavailable":
      return refusal(submission.reply({ fieldErrors: { paymentMethod: [CARD_UNAVAILABLE] } }), 400);
    case "short":
      return data(
        { result: submission.reply({ formErrors: [SHORT] }), short: placement.lines },
        { status: 409, headers: { "Cache-Control": "no-store" } },
      );
    case "total-changed":
      return data(
        {
          result: submission.reply({ formErrors: [TOTAL_CHANGED] }),
          short: [],
          totalChanged: { shownCents: placement.expectedTotalCents, totalCents: placement.order.totalCents },
        },
        { status: 409, headers: { "Cache-Control": "no-store" } },
      );
    case "empty":
      return refusal(submission.reply({ formErrors: [EMPTY] }), 409);
    case "not-quoted": {
      // Said beside the field to change: the country, the region or the shipping method.
      const { field, message } = quoteRefusalAt(placement.refusal, checkout.shippingAddress);
      return refusal(submission.reply({ fieldErrors: { [field]: [message] } }), 422);
    }
    case "key-reused":
      return refusal(submission.reply({ formErrors: [KEY_REUSED] }), 422);
  }
}

const refusal = (result: SubmissionResult<string[]>, status: number) =>
  data({ result, short: [] }, { status, headers: { "Cache-Control": "no-store" } });
