import { data } from "react-router";
import { shopMoney } from "~/commerce/shop-money.server";
import { BackOfficePage } from "~/components/back-office/back-office-page";
import { backOfficeVisitorOf, servicesContext } from "~/context.server";
import { ShopSettingsForm } from "~/features/back-office/components/shop-settings-form";
import { shopSettingsSchema } from "~/features/back-office/shop-settings-schema";
import { readSubmission } from "~/utils/form-submission.server";
import { amountText } from "~/utils/money-field";
import type { ShopSettings } from "~/utils/shop-settings.server";
import type { Route } from "./+types/admin.settings";

/** `/admin/settings` (owners only): shipping amounts, bank details, the low-stock and few-left lines. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await backOfficeVisitorOf(request, context, "owner");
  return { current: formFields(await context.get(servicesContext).settings.current()) };
}

/** POST /admin/settings: saves what changed, with its audit entry; every process uses it within a second. */
export async function action({ request, context }: Route.ActionArgs) {
  const visitor = await backOfficeVisitorOf(request, context, "owner");
  const { submission, refused } = await readSubmission(request, shopSettingsSchema(shopMoney().currency));
  if (refused) return refused;
  const { standardShipping, freeShippingFrom, expressShipping, bankDetails, lowStockAt, fewLeftAt } =
    submission.value;
  await context.get(servicesContext).settings.save(visitor.actor, {
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
  const { currency } = shopMoney();
  return {
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
    <BackOfficePage title="Settings" intro="What the shop charges for shipping and where transfers are paid.">
      <ShopSettingsForm
        // A save starts the form afresh from what was saved.
        key={JSON.stringify(loaderData.current)}
        current={loaderData.current}
        answer={actionData}
      />
    </BackOfficePage>
  );
}
