import {
  type FieldMetadata,
  getCollectionProps,
  getFormProps,
  getSelectProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { Field, FormMessage } from "~/components/forms/field";
import { useFailedSubmission } from "~/components/forms/use-failed-submission";
import { buttonClasses } from "~/components/ui/button";
import { formatCents } from "~/utils/money";
import type { CheckoutFormFields, ShortLine } from "../checkout-schema";
import { type ShippingRates, shippingCents } from "../shipping";

interface CheckoutLine {
  productId: number;
  name: string;
  quantity: number;
  unitPriceCents: number;
  lineTotalCents: number;
}

export interface CheckoutFormProps {
  lines: CheckoutLine[];
  subtotalCents: number;
  rates: ShippingRates;
  countries: { code: string; name: string }[];
  defaults: { email: string; name: string; country: string };
  /** Made when the page was rendered: every send of this form is the same checkout. */
  idempotencyKey: string;
  /** Card payments, when the shop takes them: how long an unpaid card order waits ("30 minutes"). */
  cardPayment: { window: string } | null;
  answer?: { result: SubmissionResult; short: ShortLine[] };
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
  "shippingMethod",
  "paymentMethod",
];

const INPUT =
  "block h-11 w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm outline-none focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30";

/**
 * The checkout: contact, address, shipping and payment, and a summary whose
 * shipping and total follow the method chosen. Checked on the server only
 * (the countries' postal-code rules stay out of the page's JavaScript); a
 * refused form comes back with each message next to its field, the focus on
 * the first, and what was typed kept.
 */
export function CheckoutForm({
  lines,
  subtotalCents,
  rates,
  countries,
  defaults,
  idempotencyKey,
  cardPayment,
  answer,
}: CheckoutFormProps) {
  const [form, fields] = useForm<CheckoutFormFields>({
    id: "checkout",
    lastResult: answer?.result,
    defaultValue: {
      email: defaults.email,
      shippingAddress: { name: defaults.name, country: defaults.country },
      shippingMethod: "standard",
      paymentMethod: "cash-on-delivery",
      idempotencyKey,
    },
  });
  const formRef = useFailedSubmission(answer?.result);
  // Without JavaScript the page itself puts the focus on the first field in error (with it,
  // useFailedSubmission does): `autoFocus` is written into the server's HTML.
  const errors = answer?.result.error ?? {};
  const firstInvalid = FIELD_ORDER.find((name) => (errors[name]?.length ?? 0) > 0);
  const focusFirst = (name: string) => (firstInvalid === name ? { autoFocus: true } : {});
  const address = fields.shippingAddress.getFieldset();
  const [method, setMethod] = useState<"standard" | "express">(
    fields.shippingMethod.initialValue === "express" ? "express" : "standard",
  );
  const [payment, setPayment] = useState(fields.paymentMethod.initialValue ?? "cash-on-delivery");
  const navigation = useNavigation();
  const placing = navigation.state !== "idle" && navigation.formAction === "/checkout";
  const shipping = (chosen: "standard" | "express") => shippingCents(chosen, subtotalCents, rates);
  const price = (cents: number) => (cents === 0 ? "Free" : formatCents(cents));
  return (
    <div className="mt-6 grid gap-8 lg:grid-cols-5">
      <Summary lines={lines} subtotalCents={subtotalCents} shippingCents={shipping(method)} method={method} />
      <Form
        ref={formRef}
        method="post"
        action="/checkout"
        {...getFormProps(form)}
        // A second press while the order is being placed sends nothing more (the key would make it the same order anyway).
        onSubmit={(event) => placing && event.preventDefault()}
        className="space-y-8 lg:col-span-3"
      >
        <FormMessage id={form.errorId} errors={form.errors} autoFocus={firstInvalid === undefined} />
        <ShortLines short={answer?.short ?? []} lines={lines} />
        <input type="hidden" name={fields.idempotencyKey.name} value={idempotencyKey} />
        <Section legend="Contact">
          <Field
            meta={fields.email}
            label="Email"
            type="email"
            autoComplete="email"
            {...focusFirst("email")}
          />
        </Section>
        <Section legend="Shipping address">
          <Field
            {...focusFirst("shippingAddress.name")}
            meta={address.name}
            label="Full name"
            autoComplete="shipping name"
          />
          <Field
            {...focusFirst("shippingAddress.line1")}
            meta={address.line1}
            label="Address"
            autoComplete="shipping address-line1"
          />
          <Field
            meta={address.line2}
            label="Address line 2 (optional)"
            autoComplete="shipping address-line2"
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <Field
              {...focusFirst("shippingAddress.city")}
              meta={address.city}
              label="City"
              autoComplete="shipping address-level2"
            />
            <Field
              {...focusFirst("shippingAddress.postalCode")}
              meta={address.postalCode}
              label="Postal code"
              autoComplete="shipping postal-code"
            />
          </div>
          <CountrySelect
            meta={address.country}
            countries={countries}
            autoFocus={firstInvalid === "shippingAddress.country"}
          />
        </Section>
        <Choices
          legend="Shipping"
          meta={fields.shippingMethod}
          onChange={(value) => setMethod(value === "express" ? "express" : "standard")}
          options={[
            {
              value: "standard",
              label: `Standard: ${price(shipping("standard"))}`,
              detail: `3 to 5 working days. Free from ${formatCents(rates.freeStandardFromCents)}.`,
            },
            {
              value: "express",
              label: `Express: ${price(shipping("express"))}`,
              detail: "1 to 2 working days.",
            },
          ]}
        />
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
          className={buttonClasses("primary", "md", "w-full sm:w-auto")}
        >
          {placing
            ? "Placing your order…"
            : payment === "card"
              ? "Place order and pay by card"
              : "Place order"}
        </button>
      </Form>
    </div>
  );
}

function Section({ legend, children }: { legend: string; children: React.ReactNode }) {
  return (
    <fieldset className="space-y-5 rounded-xl border border-slate-200 bg-white p-5">
      <legend className="px-1 text-lg font-bold text-slate-900">{legend}</legend>
      {children}
    </fieldset>
  );
}

function CountrySelect({
  meta,
  countries,
  autoFocus,
}: {
  meta: FieldMetadata<string>;
  countries: CheckoutFormProps["countries"];
  autoFocus: boolean;
}) {
  const error = meta.errors?.[0];
  const { key, ...select } = getSelectProps(meta);
  return (
    <div>
      <label htmlFor={meta.id} className="block text-sm font-semibold text-slate-800">
        Country
      </label>
      <select
        key={key}
        {...select}
        autoComplete="shipping country"
        // biome-ignore lint/a11y/noAutofocus: only the first field in error of a refused form, as its page comes back
        autoFocus={autoFocus}
        className={`mt-1.5 ${INPUT} ${error ? "border-red-600" : "border-slate-500"}`}
      >
        {countries.map((country) => (
          <option key={country.code} value={country.code}>
            {country.name}
          </option>
        ))}
      </select>
      {error ? (
        <p id={meta.errorId} className="mt-1.5 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface ChoicesProps {
  legend: string;
  meta: FieldMetadata<string>;
  options: { value: string; label: string; detail: string }[];
  onChange?: (value: string) => void;
}

/** A radio group: a fieldset whose legend names it, each choice with its price or how it works. */
function Choices({ legend, meta, options, onChange }: ChoicesProps) {
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
      {options.map((option, index) => {
        const { key, ...input } = inputs[index] ?? {};
        return (
          <label
            key={key ?? option.value}
            className="flex cursor-pointer gap-3 rounded-lg border border-slate-500 p-3 has-[:checked]:border-indigo-600 has-[:checked]:ring-2 has-[:checked]:ring-indigo-600/30"
          >
            <input
              {...input}
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
    </fieldset>
  );
}

/** What the checkout found short: each product, what was asked, what is left. */
function ShortLines({ short, lines }: { short: ShortLine[]; lines: CheckoutLine[] }) {
  if (short.length === 0) return null;
  const nameOf = (productId: number) =>
    lines.find((line) => line.productId === productId)?.name ?? "A product no longer sold";
  return (
    <div className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
      <ul className="list-disc space-y-1 pl-5">
        {short.map((line) => (
          <li key={line.productId}>
            {`${nameOf(line.productId)}: you asked for ${line.asked}, ${line.left === 0 ? "none is" : `${line.left} ${line.left === 1 ? "is" : "are"}`} left.`}
          </li>
        ))}
      </ul>
      <Link to="/cart" className="mt-2 inline-block font-semibold text-red-900 underline">
        Change your cart
      </Link>
    </div>
  );
}

interface SummaryProps {
  lines: CheckoutLine[];
  subtotalCents: number;
  shippingCents: number;
  method: "standard" | "express";
}

function Summary({ lines, subtotalCents, shippingCents: shipping, method }: SummaryProps) {
  return (
    <section
      aria-labelledby="checkout-summary"
      className="h-fit rounded-xl border border-slate-200 bg-white p-5 lg:order-last lg:col-span-2"
    >
      <h2 id="checkout-summary" className="text-lg font-bold text-slate-900">
        Your order
      </h2>
      <ul className="mt-4 divide-y divide-slate-200 text-sm">
        {lines.map((line) => (
          <li key={line.productId} className="flex justify-between gap-4 py-2">
            <span className="text-slate-800">{`${line.name} × ${line.quantity}`}</span>
            <span className="font-semibold text-slate-900">{formatCents(line.lineTotalCents)}</span>
          </li>
        ))}
      </ul>
      {/* Polite: the shipping method chosen changes these, and a screen reader hears the new total. */}
      <dl aria-live="polite" className="mt-4 space-y-2 border-t border-slate-200 pt-4 text-sm">
        <div className="flex justify-between">
          <dt className="text-slate-800">Subtotal</dt>
          <dd className="text-slate-900">{formatCents(subtotalCents)}</dd>
        </div>
        <div className="flex justify-between">
          <dt className="text-slate-800">{`Shipping (${method === "express" ? "Express" : "Standard"})`}</dt>
          <dd className="text-slate-900">{shipping === 0 ? "Free" : formatCents(shipping)}</dd>
        </div>
        <div className="flex justify-between text-base font-bold">
          <dt className="text-slate-900">Total</dt>
          <dd className="text-slate-900">{formatCents(subtotalCents + shipping)}</dd>
        </div>
      </dl>
      <p className="mt-2 text-sm text-slate-700">Prices include tax.</p>
    </section>
  );
}
