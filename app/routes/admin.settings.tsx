import { data } from "react-router";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { ShopSettingsForm } from "~/features/back-office/components/shop-settings-form";
import { currencyChoices } from "~/features/back-office/currency-choices";
import { chosenCurrency, shopSettingsSchema } from "~/features/back-office/shop-settings-schema";
import { checkedSubmission, readForm } from "~/utils/form-submission.server";
import { amountText } from "~/utils/money-field";
import type { ShopSettings } from "~/utils/shop-settings.server";
import type { Route } from "./+types/admin.settings";

/** `/admin/settings` (owners only): currency and locale, shipping amounts, bank details, the low-stock and few-left lines. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context, "owner");
  return {
    current: formFields(await context.get(servicesContext).settings.current()),
    currencies: currencyChoices(),
  };
}

/** POST /admin/settings: saves what changed, with its audit entry; every process uses it within a second. */
export async function action({ request, context }: Route.ActionArgs) {
  const visitor = await backOfficeVisitorOf(request, context, "owner");
  const { settings } = context.get(servicesContext);
  const form = await readForm(request);
  // The amounts are in the currency the form chose: switching to yen, an owner types shipping in yen.
  const currentCurrency = (await settings.current()).currency;
  const schema = shopSettingsSchema(chosenCurrency(form.get("currency"), currentCurrency));
  const { submission, refused } = checkedSubmission(form, schema);
  if (refused) return refused;
  const {
    currency,
    locale,
    standardShipping,
    freeShippingFrom,
    expressShipping,
    bankDetails,
    lowStockAt,
    fewLeftAt,
  } = submission.value;
  await settings.save(visitor.actor, {
    currency,
    locale,
    standardShippingCents: standardShipping,
    freeShippingFromCents: freeShippingFrom,
    expressShippingCents: expressShipping,
    bankDetails,
    lowStockAt,
    fewLeftAt,
  });
  // The loader runs again after this and shows what was saved (this process reads it fresh).
  return data({ result: submission.reply({ resetForm: true }), saved: true });
}

function formFields(settings: ShopSettings) {
  const { currency, locale } = settings;
  return {
    currency,
    locale,
    standardShipping: amountText(settings.standardShippingCents, currency),
    freeShippingFrom: amountText(settings.freeShippingFromCents, currency),
    expressShipping: amountText(settings.expressShippingCents, currency),
    bankDetails: settings.bankDetails.join("\n"),
    lowStockAt: String(settings.lowStockAt),
    fewLeftAt: String(settings.fewLeftAt),
  };
}

export default function Settings({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <BackOfficePage
      title="Settings"
      intro="The shop's currency, what it charges for shipping and where transfers are paid."
    >
      <ShopSettingsForm
        // A save starts the form afresh from what was saved.
        key={JSON.stringify(loaderData.current)}
        current={loaderData.current}
        answer={actionData}
        currencies={loaderData.currencies}
      />
    </BackOfficePage>
  );
}
