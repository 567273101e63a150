import {
  type FieldMetadata,
  getCollectionProps,
  getFormProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { type ReactNode, useState } from "react";
import { Form, useNavigation } from "react-router";
import { type QuoteLine, quoteFor } from "~/commerce/checkout-quote";
import { decimalText, money } from "~/commerce/money";
import type { TaxShippingSetup } from "~/commerce/tax-shipping-setup";
import { useAmountFormat, useShopMoney } from "~/commerce/use-money";
import { Field, FormMessage } from "~/components/forms/field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { buttonClasses } from "~/components/ui/button";
import { useHydrated } from "~/utils/hydrated";
import type { CheckoutFormFields, ShortLine } from "../checkout-schema";
import { quoteRefusal } from "../quote-refusal";
import { CheckoutAddress, type RegionLists, regionChoiceOf } from "./checkout-address";
import { type CheckoutLine, CheckoutSummary, ShortLines, TotalChanged } from "./checkout-summary";

export interface CheckoutFormProps {
  lines: CheckoutLine[];
  /** The cart's lines as its quote takes them (tax class, weight): the page prices them as the order will be. */
  quoteLines: QuoteLine[];
  /** The shop's tax and shipping setup: the methods, prices and taxes each address gets. */
  setup: TaxShippingSetup;
  /** The countries the shop ships to, by name. */
  countries: { code: string; name: string }[];
  /** Each country whose addresses need a region (state, province): what it is called, and its regions. */
  regions: RegionLists;
  defaults: { email: string; name: string; country: string };
  /** Made when the page was rendered: every send of this form is the same checkout. */
  idempotencyKey: string;
  /** Card payments, when the shop takes them: how long an unpaid card order waits ("30 minutes"). */
  cardPayment: { window: string } | null;
  answer?: {
    result: SubmissionResult;
    short: ShortLine[];
    /** Refused because the order came to another total than the page showed (`shownCents`). */
    totalChanged?: { shownCents: number; totalCents: number };
  };
}

/** The form's fields in the order they appear, for the first in error. */
const FIELD_ORDER = [
  "email",
  "shippingAddress.name",
  "shippingAddress.line1",
  "shippingAddress.line2",
  "shippingAddress.city",
  "shippingAddress.postalCode",
  "shippingAddress.country",
  "shippingAddress.region",
  "shippingMethod",
  "paymentMethod",
];

/**
 * The checkout: contact, address, shipping and payment, and a summary whose
 * shipping, taxes and total follow the address and method chosen — the
 * shop's setup quoted here as the server quotes it when it places the order
 * (commerce/checkout-quote.ts). The form carries that total
 * (`expectedTotal`): the order is placed only at the total the shopper saw,
 * which "Place order" also names. Without JavaScript the page cannot follow
 * a choice by itself, so "Update total" (beside the shipping methods) and
 * "Update for this country" show it again re-priced or with the country's
 * regions; a total that changed anyway comes back to confirm. Checked on the
 * server only (the countries' postal-code rules stay out of the page's
 * JavaScript); a refused form comes back with each message next to its
 * field, the focus on the first, and what was typed kept.
 */
export function CheckoutForm({
  lines,
  quoteLines,
  setup,
  countries,
  regions,
  defaults,
  idempotencyKey,
  cardPayment,
  answer,
}: CheckoutFormProps) {
  const formatAmount = useAmountFormat();
  // The total it shows, sent as the decimal the shopper read (146.96), written from its integer.
  const { currency } = useShopMoney();
  const [form, fields] = useForm<CheckoutFormFields>({
    id: "checkout",
    lastResult: answer?.result,
    defaultValue: {
      email: defaults.email,
      shippingAddress: { name: defaults.name, country: defaults.country },
      paymentMethod: "cash-on-delivery",
      idempotencyKey,
    },
  });
  const formRef = useFailedSubmission(answer?.result);
  const hydrated = useHydrated();
  const address = fields.shippingAddress.getFieldset();
  const [method, setMethod] = useState(fields.shippingMethod.initialValue);
  const [payment, setPayment] = useState(fields.paymentMethod.initialValue ?? "cash-on-delivery");
  const [country, setCountry] = useState(address.country.initialValue ?? defaults.country);
  const [region, setRegion] = useState(address.region.initialValue);
  const navigation = useNavigation();
  const placing = navigation.state !== "idle" && navigation.formAction === "/checkout";
  // The address's methods and taxes: the method chosen, or the first offered where it is not one of them.
  const destination = { country, region: regionChoiceOf(regions, country) ? (region ?? null) : null };
  const asked = quoteFor(setup, quoteLines, destination, method);
  const quoted =
    !asked.ok && asked.refusal === "unknown-method" ? quoteFor(setup, quoteLines, destination) : asked;
  const quote = quoted.ok ? quoted.quote : null;
  const price = (cents: number) => (cents === 0 ? "Free" : formatAmount(cents));
  // Without JavaScript the page itself puts the focus where it comes back to (with it,
  // useFailedSubmission does): `autoFocus` is written into the server's HTML. The first field in
  // error; after an Update, the list it showed or the method it priced.
  // The errors shown: after an Update, only its own field's (Conform keeps the others back).
  const errors = form.allErrors;
  const firstInvalid = FIELD_ORDER.find((name) => (errors[name]?.length ?? 0) > 0);
  const updated = answer?.result.intent?.type === "validate" ? answer.result.intent.payload.name : undefined;
  const focus =
    firstInvalid ??
    (updated === address.country.name && regionChoiceOf(regions, country) ? address.region.name : updated);
  const focusFirst = (name: string) => (focus === name ? { autoFocus: true } : {});
  return (
    <div className="mt-6 grid gap-8 lg:grid-cols-5">
      <CheckoutSummary lines={lines} quote={quote} />
      <Form
        ref={formRef}
        method="post"
        action="/checkout"
        {...getFormProps(form)}
        // A second press while the order is being placed sends nothing more (the key would make it the same order anyway).
        onSubmit={(event) => placing && event.preventDefault()}
        className="space-y-8 lg:col-span-3"
      >
        <FormMessage
          id={form.errorId}
          errors={form.errors}
          autoFocus={firstInvalid === undefined && updated === undefined}
        />
        {answer?.totalChanged && quote ? (
          <TotalChanged shownCents={answer.totalChanged.shownCents} totalCents={quote.total} />
        ) : null}
        <ShortLines short={answer?.short ?? []} lines={lines} />
        <input type="hidden" name={fields.idempotencyKey.name} value={idempotencyKey} />
        {/* The total this page shows: the order is placed at it, or not at all. */}
        {quote ? (
          <input
            type="hidden"
            name={fields.expectedTotal.name}
            value={decimalText(money(quote.total, currency))}
          />
        ) : null}
        <fieldset className="space-y-5 rounded-xl border border-slate-200 bg-white p-5">
          <legend className="px-1 text-lg font-bold text-slate-900">Contact</legend>
          <Field
            meta={fields.email}
            label="Email"
            type="email"
            autoComplete="email"
            {...focusFirst("email")}
          />
        </fieldset>
        <CheckoutAddress
          meta={fields.shippingAddress}
          countries={countries}
          regions={regions}
          country={country}
          onCountryChange={setCountry}
          onRegionChange={setRegion}
          updateButton={hydrated ? null : form.validate.getButtonProps({ name: address.country.name })}
          focus={focus}
        />
        <Choices
          legend="Shipping"
          meta={fields.shippingMethod}
          onChange={setMethod}
          chosen={quote?.shippingMethod.id}
          focusChosen={focus === fields.shippingMethod.name}
          // Why nothing is offered (the shop does not ship or sell there): said where the methods would be.
          note={
            quoted.ok
              ? undefined
              : quoteRefusal(quoted.refusal, destination, countryNameIn(countries, country)).message
          }
          options={(quote?.shippingMethods ?? []).map((offer) => ({
            value: offer.id,
            label: `${offer.name}: ${price(offer.price)}`,
            detail: `${offer.estimate}.${offer.freeFrom === null ? "" : ` Free from ${formatAmount(offer.freeFrom)}.`}`,
          }))}
        >
          {hydrated ? null : (
            // Without JavaScript the summary cannot follow the choice: this shows its total first.
            <button
              {...form.validate.getButtonProps({ name: fields.shippingMethod.name })}
              className={buttonClasses("secondary", "sm")}
            >
              Update total
            </button>
          )}
        </Choices>
        <Choices
          legend="Payment"
          meta={fields.paymentMethod}
          onChange={setPayment}
          options={[
            {
              value: "cash-on-delivery",
              label: "Pay on delivery",
              detail: "Pay the courier when your order arrives.",
            },
            {
              value: "bank-transfer",
              label: "Bank transfer",
              detail: "We email you our bank details; your order is sent once the payment arrives.",
            },
            ...(cardPayment
              ? [
                  {
                    value: "card",
                    label: "Card",
                    detail: `Pay now on Stripe's secure page; your card number never reaches us. An order not paid within ${cardPayment.window} is cancelled.`,
                  },
                ]
              : []),
          ]}
        />
        <button
          type="submit"
          aria-disabled={placing || undefined}
          className={buttonClasses("primary", "md", "w-full sm:w-auto", { wraps: true })}
        >
          {placing
            ? "Placing your order…"
            : `${payment === "card" ? "Place order and pay by card" : "Place order"}${quote ? ` · ${formatAmount(quote.total)}` : ""}`}
        </button>
      </Form>
    </div>
  );
}

interface ChoicesProps {
  legend: string;
  meta: FieldMetadata<string>;
  options: { value: string; label: string; detail: string }[];
  onChange?: (value: string) => void;
  /** The option checked, where the page decides it (the method charged); otherwise the form's own choice. */
  chosen?: string;
  /** Said in place of the options when there are none. */
  note?: string;
  /** Focus the chosen option as the page comes back (after "Update total" without JavaScript). */
  focusChosen?: boolean;
  /** After the options: what acts on the choice (the Update total button). */
  children?: ReactNode;
}

/** A radio group: a fieldset whose legend names it, each choice with its price or how it works. */
function Choices({
  legend,
  meta,
  options,
  onChange,
  chosen,
  note,
  focusChosen = false,
  children,
}: ChoicesProps) {
  const error = meta.errors?.[0];
  const inputs = getCollectionProps(meta, { type: "radio", options: options.map((option) => option.value) });
  return (
    <fieldset
      aria-describedby={error ? meta.errorId : undefined}
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-5"
    >
      <legend className="px-1 text-lg font-bold text-slate-900">{legend}</legend>
      {error ? (
        <p id={meta.errorId} className="text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
      {note ? <p className="text-sm text-slate-800">{note}</p> : null}
      {options.map((option, index) => {
        const { key, defaultChecked, ...input } = inputs[index] ?? {};
        const checked = chosen === undefined ? { defaultChecked } : { checked: chosen === option.value };
        return (
          <label
            key={key ?? option.value}
            className="flex cursor-pointer gap-3 rounded-lg border border-slate-500 p-3 has-[:checked]:border-indigo-600 has-[:checked]:ring-2 has-[:checked]:ring-indigo-600/30"
          >
            <input
              {...input}
              {...checked}
              // biome-ignore lint/a11y/noAutofocus: the choice an Update priced, as its page comes back without JavaScript
              autoFocus={focusChosen && (chosen ?? meta.initialValue) === option.value}
              onChange={(event) => onChange?.(event.currentTarget.value)}
              className="mt-1 size-4 shrink-0 accent-indigo-600"
            />
            <span>
              <span className="block font-semibold text-slate-900">{option.label}</span>
              <span className="block text-sm text-slate-700">{option.detail}</span>
            </span>
          </label>
        );
      })}
      {children}
    </fieldset>
  );
}

const countryNameIn = (countries: readonly { code: string; name: string }[], code: string) =>
  countries.find((choice) => choice.code === code)?.name ?? code;
