import { getFormProps, getTextareaProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { Field, FormMessage } from "~/components/forms/field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { useFocusWhenShown } from "~/components/forms/use-focus-when-shown";
import { buttonClasses } from "~/components/ui/button";
import type { CurrencyChoice } from "../currency-choices";
import { chosenCurrency, shopSettingsSchema } from "../shop-settings-schema";
import { ShopCurrencyFields } from "./shop-currency-fields";

export interface ShopSettingsAnswer {
  result?: SubmissionResult<string[]>;
  saved?: boolean;
}

/** The settings as the form shows them: amounts in the shop's currency, the bank details one part a line. */
export interface ShopSettingsFields {
  currency: string;
  locale: string;
  standardShipping: string;
  freeShippingFrom: string;
  expressShipping: string;
  bankDetails: string;
  lowStockAt: string;
  fewLeftAt: string;
}

/** The currency, what shipping costs, where transfers are paid, when stock is low or few are left: one form, one Save. */
export function ShopSettingsForm({
  current,
  answer,
  currencies,
}: {
  current: ShopSettingsFields;
  answer: ShopSettingsAnswer | undefined;
  currencies: CurrencyChoice[];
}) {
  const [form, fields] = useForm({
    id: "shop-settings",
    lastResult: answer?.result,
    defaultValue: current,
    // The amounts are read in the currency the form chose, as the server reads them (chosenCurrency).
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: shopSettingsSchema(chosenCurrency(formData.get("currency"), current.currency)),
      }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
  });
  const chosen = chosenCurrency(fields.currency.value, current.currency);
  const formRef = useFailedSubmission(answer?.result);
  const savedRef = useFocusWhenShown<HTMLParagraphElement>(answer?.saved);
  const bankError = fields.bankDetails.errors?.[0];
  return (
    <Form ref={formRef} method="post" {...getFormProps(form)} className="max-w-xl space-y-8">
      {answer?.saved ? (
        <p
          ref={savedRef}
          tabIndex={-1}
          role="status"
          className="rounded-lg border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900"
        >
          Settings saved. The shop uses them from now on.
        </p>
      ) : null}
      <FormMessage id={form.errorId} errors={form.errors} />
      <ShopCurrencyFields currency={fields.currency} locale={fields.locale} choices={currencies} />
      <fieldset className="space-y-5">
        <legend className="text-lg font-bold text-slate-900">Shipping</legend>
        <Field meta={fields.standardShipping} label={`Standard shipping (${chosen})`} inputMode="decimal" />
        <Field
          meta={fields.freeShippingFrom}
          label={`Free standard shipping from a subtotal of (${chosen})`}
          inputMode="decimal"
        />
        <Field meta={fields.expressShipping} label={`Express shipping (${chosen})`} inputMode="decimal" />
      </fieldset>
      <fieldset className="space-y-2">
        <legend className="text-lg font-bold text-slate-900">Bank transfer</legend>
        <label htmlFor={fields.bankDetails.id} className="block text-sm font-semibold text-slate-800">
          Bank details
        </label>
        <textarea
          {...getTextareaProps(fields.bankDetails, { ariaDescribedBy: fields.bankDetails.descriptionId })}
          key={fields.bankDetails.key}
          rows={4}
          className={`block w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 ${bankError ? "border-red-600" : "border-slate-500"}`}
        />
        {bankError ? (
          <p id={fields.bankDetails.errorId} className="text-sm font-medium text-red-700">
            {bankError}
          </p>
        ) : null}
        <p id={fields.bankDetails.descriptionId} className="text-sm text-slate-600">
          One part a line (account name, IBAN, BIC), as the order page and email show them.
        </p>
      </fieldset>
      <fieldset className="space-y-5">
        <legend className="text-lg font-bold text-slate-900">Stock</legend>
        <Field
          meta={fields.lowStockAt}
          label="Low stock at (units or fewer)"
          inputMode="numeric"
          hint="Products with this many units or fewer are listed as low on stock."
        />
        <Field
          meta={fields.fewLeftAt}
          label="Show “Only N left” at (units or fewer)"
          inputMode="numeric"
          hint="Shoppers read “Only 3 left” on cards, the product page and the cart for a product with this many units or fewer. 0: never (“In stock” until sold out)."
        />
      </fieldset>
      <button type="submit" className={buttonClasses("primary", "md")}>
        Save settings
      </button>
    </Form>
  );
}
