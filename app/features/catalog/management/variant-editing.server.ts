import { eq } from "drizzle-orm";
import { writeProductVariants } from "~/commerce/variant-writing.server";
import {
  everyCombination,
  productVariantsSchema,
  type VariantAsked,
  type VariantsAsked,
} from "~/commerce/variants-schema";
import type { Database } from "~/db/client.server";
import { products } from "~/db/schema";
import type { Actor } from "~/utils/audit-log.server";
import { productVariantsOf } from "../core/product-variants.server";
import { parsedValues, type VariantsForm } from "../core/variants-form-schema";
import { uploadedPicture } from "./product-editing.server";

/**
 * The back office's options and variants of one product
 * (`/admin/products/<id>/variants`): read for the form, and the form's
 * buttons applied through the one writer (app/commerce/variant-writing.server.ts),
 * each with its audit entry. Make every combination keeps the rows the
 * owner has for combinations that stay, and adds the others at the
 * cheapest price with no stock.
 */

export async function variantsForEditing(db: Database, productId: number) {
  const [product] = await db
    .select({ id: products.id, name: products.name, sku: products.sku, archivedAt: products.archivedAt })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) return null;
  const { options, variants } = await productVariantsOf(db, productId);
  return { product: { ...product, archived: product.archivedAt !== null }, options, variants };
}

export type VariantsOutcome = { ok: true } | { ok: false; field: string; message: string };

/** The form's rows as the writer takes them, after its button's change (a bulk action, the combinations). */
function askedOf(
  form: VariantsForm,
  productSku: string,
  images: readonly (string | null)[],
): VariantsAsked | { field: string; message: string } {
  const options = form.options
    .map((option, at) => ({ at, name: option.name ?? "", values: parsedValues(option.values) }))
    .filter((option) => option.name !== "" || option.values.length > 0);
  const rows = form.variants.map((row, at) => ({
    id: row.id,
    values: options.map((option) => row[`option${option.at + 1}` as "option1"] ?? ""),
    sku: row.sku,
    priceMinor: form.intent === "set-price" && row.selected ? (form.bulkPrice as number) : row.price,
    compareAtMinor: row.compareAt ?? null,
    onHand: form.intent === "add-stock" && row.selected ? row.stock + (form.bulkStock as number) : row.stock,
    onHandShown: row.stockShown,
    weightGrams: row.weight ?? null,
    image: images[at] ?? null,
  }));
  if (form.intent === "combine") {
    const count = options.reduce((made, option) => made * Math.max(option.values.length, 1), 1);
    if (count > MOST_COMBINATIONS) {
      const widest = options.reduce((a, b) => (b.values.length > a.values.length ? b : a));
      return {
        field: `options[${widest.at}].values`,
        message: `These values make ${count.toLocaleString("en-US")} combinations: a product has at most ${MOST_COMBINATIONS} variants.`,
      };
    }
  } else if (!rowsFit(options, rows)) {
    return {
      field: "variants",
      message: "The options changed: press Make every combination to make the variants for them, then save.",
    };
  }
  const variants = form.intent === "combine" ? combined(options, rows, productSku) : rows;
  const parsed = productVariantsSchema.safeParse({
    options: options.map(({ name, values }) => ({ name, values })),
    variants: variants.map((variant) =>
      // A stock left as shown is no stock to set: a sale meanwhile is kept.
      variant.onHand === variant.onHandShown
        ? { ...variant, onHand: undefined, onHandShown: undefined }
        : variant,
    ),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      field: formField(issue?.path ?? [], options),
      message: issue?.message ?? "The variants are not valid.",
    };
  }
  return parsed.data;
}

type Row = VariantAsked;

/** As the writer's schema allows (app/commerce/variants-schema.ts). */
const MOST_COMBINATIONS = 100;

/** Whether every row has one of each option's values: else the options changed since the rows were made. */
function rowsFit(options: { values: { value: string }[] }[], rows: Row[]): boolean {
  return rows.every(
    (row) =>
      row.values.length === options.length &&
      row.values.every((value, at) => options[at]?.values.some((known) => known.value === value)),
  );
}

/** A row for every combination of the options' values: the owner's where there is one, else a new one. */
function combined(
  options: { name: string; values: { value: string }[] }[],
  rows: Row[],
  productSku: string,
): Row[] {
  const combinations = everyCombination(options);
  const cheapest = rows.length > 0 ? Math.min(...rows.map((row) => row.priceMinor)) : 0;
  const key = (values: readonly string[]) => JSON.stringify(values);
  const byValues = new Map(rows.map((row) => [key(row.values), row]));
  return combinations.map(
    (values) =>
      byValues.get(key(values)) ?? {
        values,
        sku: [productSku, ...values.map((value) => value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ""))].join(
          "-",
        ),
        priceMinor: cheapest,
        compareAtMinor: null,
        onHand: 0,
      },
  );
}

/** A writer's path ("variants.2.priceMinor", "options.0.name") as the form's field ("variants[2].price"). */
function formField(path: readonly PropertyKey[], options: { at: number }[]): string {
  const [list, at, field] = path;
  if (list === "options" && typeof at === "number") {
    const row = options[at]?.at ?? at;
    return `options[${row}].${field === "name" ? "name" : "values"}`;
  }
  if (list === "variants" && typeof at === "number") {
    const names: Record<string, string> = {
      sku: "sku",
      priceMinor: "price",
      compareAtMinor: "compareAt",
      onHand: "stock",
      weightGrams: "weight",
      image: "picture",
    };
    // A row's values are not fields of the form (its title shows them): said above the table.
    if (field === "values") return "variants";
    return `variants[${at}].${names[String(field)] ?? "sku"}`;
  }
  return "variants";
}

/**
 * Each row's picture: a new one stored (refused, naming the row's field, when it is not a picture
 * the shop can read), none when "Remove picture" is ticked, else the one its variant has.
 */
async function variantPictures(
  db: Database,
  productId: number,
  form: VariantsForm,
): Promise<(string | null)[] | { field: string; message: string }> {
  const { variants } = await productVariantsOf(db, productId);
  const stored = new Map(variants.map((variant) => [variant.id, variant.image]));
  const images: (string | null)[] = [];
  for (const [at, row] of form.variants.entries()) {
    if (row.picture) {
      const uploaded = await uploadedPicture(db, row.picture);
      if ("refused" in uploaded)
        return { field: `variants[${at}].picture`, message: uploaded.refused.message };
      images.push(uploaded.image);
    } else if (row.removePicture) images.push(null);
    else images.push(row.id === undefined ? null : (stored.get(row.id) ?? null));
  }
  return images;
}

/** Applies the form's button: the writer's refusal comes back naming the form's field. */
export async function applyVariantsForm(
  db: Database,
  actor: Actor,
  productId: number,
  form: VariantsForm,
): Promise<VariantsOutcome | null> {
  const [product] = await db.select({ sku: products.sku }).from(products).where(eq(products.id, productId));
  if (!product) return null;
  const images = await variantPictures(db, productId, form);
  if (!Array.isArray(images)) return { ok: false, ...images };
  const asked = askedOf(form, product.sku, images);
  if ("field" in asked) return { ok: false, ...asked };
  const written = await writeProductVariants(db, productId, asked, actor);
  if (written.ok) return { ok: true };
  const path = written.field.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  const options = form.options.map((_, at) => ({ at }));
  return { ok: false, field: formField(path, options), message: written.message };
}
