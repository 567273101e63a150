import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { useShopMoney } from "~/commerce/use-money";
import { buttonClasses } from "~/components/ui/button";
import { amountExample, amountText } from "~/utils/money-field";
import { valuesText } from "../../core/variants-form-schema";
import { VariantPictureField } from "./variant-picture-field";

/**
 * The owner's options and variants of one product: up to three options (a
 * name and its values in order), "Make every combination", and the table
 * of variants — SKU, price, "was" price, stock, weight, picture — with bulk actions
 * for the selected rows. A plain form (it works without JavaScript); on a
 * phone each variant is a card of its fields. After a refused send, the
 * focus goes to the first field in error.
 */

interface EditedVariant {
  id: number;
  sku: string;
  values: string[];
  priceMinor: number;
  compareAtMinor: number | null;
  weightGrams: number | null;
  stock: number;
  image: string | null;
}

interface EditedOption {
  name: string;
  values: { value: string; swatch?: string | undefined }[];
}

const LABEL = "block text-sm font-semibold text-slate-800";
const CONTROL =
  "mt-1 block w-full min-w-0 rounded-lg border bg-white px-3 py-2 text-base text-slate-900 outline-none " +
  "focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30";
const ERROR = "mt-1 text-sm font-medium text-red-700";

type Typed = {
  options?: { name?: string; values?: string }[];
  variants?: Record<string, string | undefined>[];
  bulkPrice?: string;
  bulkStock?: string;
};

export function VariantsEditor({
  options,
  variants,
  result,
}: {
  options: EditedOption[];
  variants: EditedVariant[];
  result?: SubmissionResult<string[]> | undefined;
}) {
  const { currency } = useShopMoney();
  const errors = (result?.error ?? {}) as Record<string, string[] | null>;
  const typed = (result?.initialValue ?? {}) as Typed;
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!result?.error) return;
    form.current?.querySelector<HTMLElement>("[aria-invalid='true'], #variants-error")?.focus();
  }, [result]);

  const errorOf = (name: string) => errors[name]?.[0];
  // The table's own, and any about a row's hidden fields (its id, its values, the stock it showed).
  const tableErrors = Object.entries(errors)
    .filter(([name]) => name === "variants" || /^variants\[\d+\]\.(id|stockShown|option\d)$/.test(name))
    .map(([, messages]) => messages?.[0])
    .filter((message): message is string => Boolean(message));
  const control = (
    name: string,
    label: string,
    value: string,
    props: { inputMode?: "decimal" | "numeric" } = {},
  ) => {
    const error = errorOf(name);
    const id = `field-${name.replace(/[[\].]/g, "-")}`;
    return {
      input: (
        <input
          id={id}
          name={name}
          defaultValue={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`${CONTROL} ${error ? "border-red-600" : "border-slate-500"}`}
          {...props}
        />
      ),
      id,
      label,
      error: error ? (
        <p id={`${id}-error`} className={ERROR}>
          {error}
        </p>
      ) : null,
    };
  };
  const rowOf = (at: number, field: string, fallback: string) => typed.variants?.[at]?.[field] ?? fallback;
  const shownOptions = options.length > 0 ? options : [];

  return (
    <Form method="post" encType="multipart/form-data" ref={form} noValidate className="space-y-8">
      {/* The first submit button is the one Enter sends: Save. */}
      <div className="flex justify-end">
        <button type="submit" name="intent" value="save" className={buttonClasses("primary", "md")}>
          Save variants
        </button>
      </div>

      <fieldset className="space-y-4 rounded-lg border border-slate-300 p-4">
        <legend className="px-1 text-lg font-bold text-slate-900">Options</legend>
        <p className="text-sm text-slate-700">
          Up to three, such as Size or Colour. Values in order, separated by commas (S, M, L); a colour's
          swatch after it (Red #b91c1c). To remove an option, empty it and press Make every combination.
        </p>
        {[0, 1, 2].map((at) => {
          const option = options[at];
          const name = control(
            `options[${at}].name`,
            `Option ${at + 1} name`,
            typed.options?.[at]?.name ?? option?.name ?? "",
          );
          const values = control(
            `options[${at}].values`,
            `Option ${at + 1} values`,
            typed.options?.[at]?.values ?? (option ? valuesText(option.values) : ""),
          );
          return (
            <div key={at} className="grid gap-3 sm:grid-cols-[12rem_minmax(0,1fr)]">
              <div>
                <label htmlFor={name.id} className={LABEL}>
                  {name.label}
                </label>
                {name.input}
                {name.error}
              </div>
              <div>
                <label htmlFor={values.id} className={LABEL}>
                  {values.label}
                </label>
                {values.input}
                {values.error}
              </div>
            </div>
          );
        })}
        <button type="submit" name="intent" value="combine" className={buttonClasses("secondary", "md")}>
          Make every combination
        </button>
      </fieldset>

      <section aria-labelledby="variants-heading" className="space-y-4">
        <h2 id="variants-heading" className="text-lg font-bold text-slate-900">
          {`Variants (${variants.length})`}
        </h2>
        {tableErrors.length > 0 ? (
          <p id="variants-error" tabIndex={-1} role="alert" className={ERROR}>
            {tableErrors.join(" ")}
          </p>
        ) : null}
        <table className="w-full border-collapse text-left max-md:block">
          <caption className="sr-only">
            Each variant's SKU, price, compare-at price, stock, weight and picture
          </caption>
          <thead className="max-md:sr-only">
            <tr className="border-b border-slate-300 text-sm text-slate-700">
              <th scope="col" className="p-2">
                Select
              </th>
              <th scope="col" className="p-2">
                {shownOptions.map((option) => option.name).join(" / ") || "Variant"}
              </th>
              <th scope="col" className="p-2">
                SKU
              </th>
              <th scope="col" className="p-2">{`Price (${currency})`}</th>
              <th scope="col" className="p-2">
                Compare-at
              </th>
              <th scope="col" className="p-2">
                Stock
              </th>
              <th scope="col" className="p-2">
                Weight (g)
              </th>
              <th scope="col" className="p-2">
                Picture
              </th>
            </tr>
          </thead>
          <tbody className="max-md:block max-md:space-y-4">
            {variants.map((variant, at) => {
              const title = variant.values.join(" / ") || "The only variant";
              const cells = [
                control(`variants[${at}].sku`, "SKU", rowOf(at, "sku", variant.sku)),
                control(
                  `variants[${at}].price`,
                  "Price",
                  rowOf(at, "price", amountText(variant.priceMinor, currency)),
                  {
                    inputMode: "decimal",
                  },
                ),
                control(
                  `variants[${at}].compareAt`,
                  "Compare-at price",
                  rowOf(
                    at,
                    "compareAt",
                    variant.compareAtMinor === null ? "" : amountText(variant.compareAtMinor, currency),
                  ),
                  { inputMode: "decimal" },
                ),
                control(`variants[${at}].stock`, "Stock", rowOf(at, "stock", String(variant.stock)), {
                  inputMode: "numeric",
                }),
                control(
                  `variants[${at}].weight`,
                  "Weight (g)",
                  rowOf(at, "weight", variant.weightGrams === null ? "" : String(variant.weightGrams)),
                  { inputMode: "numeric" },
                ),
              ];
              return (
                <tr
                  key={variant.id}
                  className="border-b border-slate-200 align-top max-md:grid max-md:grid-cols-2 max-md:gap-3 max-md:rounded-lg max-md:border max-md:border-slate-300 max-md:p-3"
                >
                  <td className="p-2 max-md:col-span-2 max-md:p-0">
                    <input type="hidden" name={`variants[${at}].id`} value={variant.id} />
                    <input type="hidden" name={`variants[${at}].stockShown`} value={variant.stock} />
                    {variant.values.map((value, position) => (
                      <input
                        // biome-ignore lint/suspicious/noArrayIndexKey: an option's place is its key
                        key={position}
                        type="hidden"
                        name={`variants[${at}].option${position + 1}`}
                        value={value}
                      />
                    ))}
                    <label className="inline-flex min-h-11 items-center gap-2 text-sm text-slate-800">
                      <input
                        type="checkbox"
                        name={`variants[${at}].selected`}
                        className="size-5 rounded border-slate-500 accent-indigo-700"
                      />
                      <span className="md:sr-only">{`Select ${title}`}</span>
                    </label>
                  </td>
                  <th
                    scope="row"
                    className="p-2 text-sm font-semibold text-slate-900 max-md:col-span-2 max-md:p-0"
                  >
                    {title}
                  </th>
                  {cells.map((cell) => (
                    <td key={cell.id} className="p-2 max-md:p-0">
                      <label htmlFor={cell.id} className={`${LABEL} md:sr-only`}>
                        {cell.label} <span className="sr-only">{`of ${title}`}</span>
                      </label>
                      {cell.input}
                      {cell.error}
                    </td>
                  ))}
                  <td className="p-2 max-md:col-span-2 max-md:p-0">
                    <VariantPictureField
                      name={`variants[${at}]`}
                      title={title}
                      image={variant.image}
                      error={errorOf(`variants[${at}].picture`)}
                      labelClassName={LABEL}
                      errorClassName={ERROR}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>

      <fieldset className="grid gap-4 rounded-lg border border-slate-300 p-4 sm:grid-cols-2">
        <legend className="px-1 text-lg font-bold text-slate-900">For the selected variants</legend>
        {[
          {
            field: control("bulkPrice", "New price", typed.bulkPrice ?? "", { inputMode: "decimal" }),
            intent: "set-price",
            button: "Set price",
            hint: `Like ${amountExample(currency)}.`,
          },
          {
            field: control("bulkStock", "Units to add", typed.bulkStock ?? "", { inputMode: "numeric" }),
            intent: "add-stock",
            button: "Add stock",
            hint: "Added to each one's stock.",
          },
        ].map(({ field, intent, button, hint }) => (
          <div key={intent}>
            <label htmlFor={field.id} className={LABEL}>
              {field.label}
            </label>
            <p className="text-sm text-slate-700">{hint}</p>
            <div className="flex items-start gap-2">
              <div className="min-w-0 grow">{field.input}</div>
              <button
                type="submit"
                name="intent"
                value={intent}
                className={buttonClasses("secondary", "md", "mt-1")}
              >
                {button}
              </button>
            </div>
            {field.error}
          </div>
        ))}
      </fieldset>

      <button type="submit" name="intent" value="save" className={buttonClasses("primary", "md")}>
        Save variants
      </button>
    </Form>
  );
}
