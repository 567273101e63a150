import {
  type FieldMetadata,
  getInputProps,
  getSelectProps,
  getTextareaProps,
  type SubmissionResult,
  useForm,
} from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type DragEvent, useMemo, useRef, useState } from "react";
import { useShopMoney } from "~/commerce/use-money";
import { Field } from "~/components/forms/field";
import { FileUploadForm } from "~/components/forms/file-upload-form";
import { buttonClasses } from "~/components/ui/button";
import { amountExample, amountText } from "~/utils/money-field";
import { PICTURE_FORMAT_NAMES, PICTURE_FORMATS } from "../../core/catalog-format";
import { newProductFormSchema, PICTURE_MAX_BYTES, productFormSchema } from "../../core/product-form-schema";

/** A product as the form starts with it: empty for a new one. */
export interface ProductFormValues {
  name: string;
  /** Empty for a new product: the shop makes one unless the owner types theirs. */
  sku: string;
  brand: string;
  category: string;
  priceCents: number | null;
  stock: number;
  description: string;
  /** Null or empty: the standard rate. */
  taxClass: string | null;
  image: string | null;
}

interface Choice {
  value: string;
  label: string;
}

const LABEL = "block text-sm font-semibold text-slate-800";
const CONTROL =
  "mt-1.5 block w-full rounded-lg border bg-white px-3 text-base text-slate-900 shadow-sm outline-none " +
  "focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/30";
const ERROR = "mt-1.5 text-sm font-medium text-red-700";

function borderOf(meta: FieldMetadata<unknown>) {
  return meta.errors?.length ? "border-red-600" : "border-slate-500";
}

function ChoiceField({
  meta,
  label,
  choices,
}: {
  meta: FieldMetadata<string>;
  label: string;
  choices: Choice[];
}) {
  return (
    <div>
      <label htmlFor={meta.id} className={LABEL}>
        {label}
      </label>
      <select {...getSelectProps(meta)} key={meta.key} className={`${CONTROL} h-11 ${borderOf(meta)}`}>
        <option value="">Choose a {label.toLowerCase()}</option>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
      {meta.errors?.[0] ? (
        <p id={meta.errorId} className={ERROR}>
          {meta.errors[0]}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The picture: a plain file input (it works without JavaScript), inside a
 * zone a file can also be dropped on once JavaScript runs; the dropped file
 * becomes the input's, so the form sends it the same way.
 */
function PictureField({
  meta,
  image,
  name,
}: {
  meta: FieldMetadata<File | undefined>;
  image: string | null;
  name: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const error = meta.errors?.[0];
  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    const files = event.dataTransfer.files;
    if (!input.current || files.length === 0) return;
    input.current.files = files;
    setChosen(files[0]?.name ?? null);
    input.current.dispatchEvent(new Event("change", { bubbles: true }));
  };
  const hintId = `${meta.id}-hint`;
  return (
    <div>
      <label htmlFor={meta.id} className={LABEL}>
        Picture
      </label>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: dropping is a shortcut; the file input inside does the same by keyboard */}
      <div
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={`mt-1.5 flex flex-col gap-3 rounded-lg border-2 border-dashed p-4 sm:flex-row sm:items-center ${
          over ? "border-indigo-600 bg-indigo-50" : error ? "border-red-600" : "border-slate-400"
        }`}
      >
        {image ? (
          <img
            src={image}
            alt={`${name}, as the shop shows it now`}
            width={160}
            height={120}
            className="rounded border border-slate-200"
          />
        ) : null}
        <div className="min-w-0 space-y-2">
          <input
            {...getInputProps(meta, { type: "file" })}
            key={meta.key}
            ref={input}
            accept={PICTURE_FORMATS.map((format) => format.type).join(",")}
            aria-describedby={[error ? meta.errorId : null, hintId].filter(Boolean).join(" ")}
            onChange={(event) => setChosen(event.currentTarget.files?.[0]?.name ?? null)}
            className="block w-full max-w-full text-sm text-slate-800 file:mr-3 file:rounded-lg file:border file:border-slate-500 file:bg-white file:px-3 file:py-2 file:font-semibold"
          />
          <p id={hintId} className="text-sm text-slate-700">
            {chosen
              ? `Chosen: ${chosen}.`
              : `Choose a file or drop one here: ${PICTURE_FORMAT_NAMES}, at most ${PICTURE_MAX_BYTES / 1024 / 1024} MB.${image ? " Leave it empty to keep the picture." : ""}`}
          </p>
        </div>
      </div>
      {error ? (
        <p id={meta.errorId} className={ERROR}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A product's form (new or existing): its fields as the shop names them and
 * one Save. Checked in the browser with the server's schema; sent as a
 * multipart form, so the picture goes with it (without JavaScript too).
 */
export function ProductForm({
  product,
  brands,
  categories,
  taxClasses,
  result,
  stockShown,
}: {
  product: ProductFormValues;
  /** The units on hand the stock is counted from: the page's, or those a refused save read. */
  stockShown?: number;
  brands: Choice[];
  categories: Choice[];
  /** The classes the tax zones give rates, for the Tax class field's hint. */
  taxClasses: string[];
  result: SubmissionResult<string[]> | undefined;
}) {
  const isNew = product.priceCents === null;
  const { currency } = useShopMoney();
  const schema = useMemo(
    () => (isNew ? newProductFormSchema(currency) : productFormSchema(currency)),
    [isNew, currency],
  );
  const [form, fields] = useForm({
    id: "product",
    lastResult: result,
    onValidate: ({ formData }) => parseWithZod(formData, { schema }),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    defaultValue: {
      name: product.name,
      sku: product.sku,
      brand: product.brand,
      category: product.category,
      price: product.priceCents === null ? "" : amountText(product.priceCents, currency),
      stock: String(product.stock),
      description: product.description,
      taxClass: product.taxClass ?? "",
    },
  });
  return (
    <FileUploadForm form={form} result={result} className="max-w-2xl space-y-5">
      <input type="hidden" name="intent" value="save" />
      {isNew ? null : <input type="hidden" name="stockShown" value={stockShown ?? product.stock} />}
      <Field meta={fields.name} label="Name" autoComplete="off" />
      <Field
        meta={fields.sku}
        label="SKU"
        autoComplete="off"
        spellCheck={false}
        hint={
          isNew
            ? "Your own code for the product, up to 100 characters. Leave it empty and the shop makes one."
            : "Your own code for the product, up to 100 characters: a catalogue file's sku column finds the product by it."
        }
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <ChoiceField meta={fields.brand} label="Brand" choices={brands} />
        <ChoiceField meta={fields.category} label="Category" choices={categories} />
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          meta={fields.price}
          label="Price"
          inputMode="decimal"
          autoComplete="off"
          hint={`In ${currency}, such as ${amountExample(currency)}.`}
        />
        <Field
          meta={fields.stock}
          label="Stock"
          inputMode="numeric"
          autoComplete="off"
          hint={
            isNew ? "Units on hand." : `Units on hand when this page opened: ${stockShown ?? product.stock}.`
          }
        />
      </div>
      <div>
        <label htmlFor={fields.description.id} className={LABEL}>
          Description
        </label>
        <textarea
          {...getTextareaProps(fields.description)}
          key={fields.description.key}
          rows={6}
          className={`${CONTROL} py-2 ${borderOf(fields.description)}`}
        />
        {fields.description.errors?.[0] ? (
          <p id={fields.description.errorId} className={ERROR}>
            {fields.description.errors[0]}
          </p>
        ) : null}
      </div>
      <Field
        meta={fields.taxClass}
        label="Tax class"
        autoComplete="off"
        spellCheck={false}
        hint={
          taxClasses.length > 0
            ? `Leave it empty for the standard rate. Your tax zones have: ${taxClasses.join(", ")}.`
            : "Leave it empty for the standard rate. A class (like reduced) takes the rate your tax zones give it."
        }
      />
      <PictureField meta={fields.picture} image={product.image} name={product.name} />
      <button type="submit" className={buttonClasses("primary")}>
        Save
      </button>
    </FileUploadForm>
  );
}
