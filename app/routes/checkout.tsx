import { randomUUID } from "node:crypto";
import { data, type ShouldRevalidateFunctionArgs } from "react-router";
import { shippedCountries } from "~/commerce/checkout-quote";
import { pageMeta } from "~/components/layout/page-meta";
import { buttonClasses } from "~/components/ui/button";
import {
  cardPaymentOffer,
  checkoutVisitorOf,
  servicesContext,
  shopperOf,
  shoppingRefusalOf,
} from "~/context.server";
import { cartPageData } from "~/features/cart/cart-page.server";
import { RepricedNote } from "~/features/cart/components/repriced-note";
import { checkoutFormAction } from "~/features/orders/checkout-page.server";
import { quoteLinesOf } from "~/features/orders/checkout-quote.server";
import { countryChoices, likelyCountry } from "~/features/orders/checkout-schema";
import { CheckoutForm } from "~/features/orders/components/checkout-form";
import { regionChoices } from "~/features/orders/shipping-regions";
import { shopperLocale } from "~/utils/locale.server";
import { shoppingRefusalMessage } from "~/utils/shopping-rate-limit.server";
import type { Route } from "./+types/checkout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const shopper = await shopperOf(request, context);
  const visitor = await checkoutVisitorOf(request, context, shopper.cart);
  const [cart, quoteLines] = await Promise.all([
    cartPageData(request, shopper.cart),
    visitor.cart ? quoteLinesOf(context.get(servicesContext).database.db, visitor.cart.id) : [],
  ]);
  // The countries the shop ships to; the shopper's own first when it is one of them.
  const shipped = shippedCountries(visitor.setup);
  const countries = countryChoices().filter((choice) => shipped.has(choice.code));
  const likely = likelyCountry(shopperLocale(request));
  const country = shipped.has(likely) ? likely : (countries[0]?.code ?? likely);
  return data(
    {
      lines: cart.lines.map(
        ({ productId, variantId, name, options, quantity, unitPriceCents, lineTotalCents }) => ({
          productId,
          variantId,
          name,
          options,
          quantity,
          unitPriceCents,
          lineTotalCents,
        }),
      ),
      quoteLines,
      setup: visitor.setup,
      repriced: { from: cart.repricedFrom, to: cart.currency },
      countries,
      regions: regionChoices(),
      defaults: { email: shopper.email, name: shopper.name, country },
      // A new key for each page shown: every send of this page's form is one checkout.
      idempotencyKey: randomUUID(),
      cardPayment: cardPaymentOffer(context),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  return checkoutFormAction(request, await checkoutVisitorOf(request, context), async () => {
    const refused = await shoppingRefusalOf(context, "checkout");
    return refused ? shoppingRefusalMessage("checkout", refused.retryAfterSeconds) : null;
  });
}

/**
 * A checkout refused for the cart as it is now (409: the total, a price or
 * the stock changed) is read again, so the page shows the total it asks the
 * shopper to confirm (without JavaScript it is rendered anew anyway).
 */
export function shouldRevalidate({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

export function meta() {
  return pageMeta({ title: "Checkout | Backline", description: "Place your order.", noindex: true });
}

export default function CheckoutPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <main id="main" className="mx-auto w-full max-w-6xl px-4 pt-6 pb-16 sm:px-6 lg:px-8 lg:pt-10">
      <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">Checkout</h1>
      <RepricedNote {...loaderData.repriced} />
      {loaderData.lines.length === 0 ? (
        <div className="mt-6 rounded-xl border border-slate-200 bg-white p-8 text-center">
          <p className="text-base text-slate-800">Your cart is empty: there is nothing to check out.</p>
          <a href="/" className={buttonClasses("primary", "md", "mt-5")}>
            Continue shopping
          </a>
        </div>
      ) : (
        <CheckoutForm {...loaderData} answer={actionData} />
      )}
    </main>
  );
}
