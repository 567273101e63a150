import { PRICE_MOST_CENTS, SKU_MAX_LENGTH, STOCK_MOST } from "~/commerce/catalog-limits";
import type { CurrencyCode } from "~/commerce/money";
import { TAX_CLASS } from "~/commerce/tax-class";
import { amountField } from "~/utils/money-field";
import { z } from "~/utils/zod";

/**
 * The back office's product form (`/admin/products/new`, `/admin/products/<id>`):
 * one schema for the browser's messages and the server's check. Its fields
 * are named as the shop names them (Name, SKU, Brand, Category, Price, Stock,
 * Description, Picture); the price is the shop's currency as typed, read as
 * whole minor units from its text (money-field.ts), never through a float.
 */

/** A picture file may be at most this large (a phone's photo is 2–8 MB). */
export const PICTURE_MAX_BYTES = 10 * 1024 * 1024;

const PRODUCT_LIMITS = { name: 200, description: 10_000, facet: 100 };

const text = (label: string, max: number, { lines = false } = {}) =>
  z
    .string({ error: `${label} is required.`, label, multiline: lines })
    .trim()
    .max(max, `${label} must be at most ${max} characters.`);

const wholeUnits = (label: string) =>
  z
    .string({ error: `${label} is required: a whole number of units, such as 12.`, label })
    .trim()
    .regex(/^\d{1,9}$/, `${label} must be a whole number of units, such as 12.`)
    .transform(Number)
    .pipe(z.number().max(STOCK_MOST, `${label} must be at most ${STOCK_MOST.toLocaleString("en-US")}.`));

export const pictureFile = (missing: string) =>
  z
    .file({ error: missing })
    .max(PICTURE_MAX_BYTES, `Picture must be at most ${PICTURE_MAX_BYTES / 1024 / 1024} MB.`);

/** The owner's key for the product, held to the catalogue file's limits for its sku column. */
const skuText = () => text("SKU", SKU_MAX_LENGTH).min(1, "SKU is required.");

/**
 * What a Save sends, for a shop selling in `currency` (its price field takes
 * that currency's decimals). `stockShown` is the on-hand the page showed: the
 * stock is set only if it is still that.
 */
export const productFormSchema = (currency: CurrencyCode) =>
  z.object({
    name: text("Name", PRODUCT_LIMITS.name).min(1, "Name is required."),
    sku: skuText(),
    brand: text("Brand", PRODUCT_LIMITS.facet).min(1, "Choose a brand."),
    category: text("Category", PRODUCT_LIMITS.facet).min(1, "Choose a category."),
    price: amountField("Price", currency, { most: PRICE_MOST_CENTS }),
    stock: wholeUnits("Stock"),
    stockShown: wholeUnits("The stock shown").optional(),
    description: text("Description", PRODUCT_LIMITS.description, { lines: true }).optional(),
    /** Empty: the tax zones' standard rate. */
    taxClass: z
      .string({ label: "Tax class" })
      .trim()
      .toLowerCase()
      .regex(TAX_CLASS, "Tax class is lowercase letters, digits and dashes, like reduced.")
      .optional(),
    /** Empty: the product keeps its picture. */
    picture: pictureFile("Picture must be a picture file.").optional(),
  });

/**
 * A new product needs a picture: every page of the shop shows one. Its SKU
 * may be left empty: the database gives it one of its own (a random UUID).
 */
export const newProductFormSchema = (currency: CurrencyCode) =>
  productFormSchema(currency).extend({
    sku: skuText().optional(),
    picture: pictureFile("Choose a picture for the product."),
  });

export type ProductForm = z.output<ReturnType<typeof productFormSchema>>;
export type NewProductForm = z.output<ReturnType<typeof newProductFormSchema>>;

/** The buttons of a product's page besides Save: each its own small form with an `intent`. */
export const productIntentSchema = z.object({
  intent: z.enum(["save", "archive", "restore", "delete"], {
    error: "intent must be save, archive, restore or delete.",
  }),
});

/** Delete asks for the password again (an account without one: a recent sign-in, checked on the server). */
export const productDeleteSchema = z.object({
  intent: z.literal("delete"),
  password: z.string({ label: "Password" }).max(128, "That is not your current password.").optional(),
});

/** The brands and categories page: add one, rename a label, move one up or down. */
const labelText = (label: string) =>
  text(label, PRODUCT_LIMITS.facet).min(1, `${label} is required (1 to ${PRODUCT_LIMITS.facet} characters).`);

const LABEL_KINDS = ["brand", "category"] as const;
export type LabelKind = (typeof LABEL_KINDS)[number];

const kind = z.enum(LABEL_KINDS, { error: "kind must be brand or category." });

export const catalogLabelFormSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("add"),
      kind,
      value: labelText("Value").regex(
        /^[A-Za-z0-9][A-Za-z0-9_-]*$/,
        "Value must be letters, digits, - or _, as addresses carry it (such as campSafe).",
      ),
      label: labelText("Label"),
    }),
    z.object({ intent: z.literal("rename"), kind, value: labelText("Value"), label: labelText("Label") }),
    z.object({
      intent: z.enum(["move-up", "move-down"]),
      kind,
      value: labelText("Value"),
    }),
  ],
  { error: "intent must be add, rename, move-up or move-down." },
);

export type CatalogLabelForm = z.output<typeof catalogLabelFormSchema>;
