import { and, eq, ne, sql } from "drizzle-orm";
import { productOptionCount, productUnitsOnHand, productVariantCount } from "~/commerce/units-on-hand.server";
import type { Database, Transaction } from "~/db/client.server";
import { failedWith, UNIQUE_VIOLATION } from "~/db/errors.server";
import { brands, categories, orderLines, products, productVariants, stockLevels } from "~/db/schema";
import { type Actor, changedFields, productName, recordChange } from "~/utils/audit-log.server";
import { PICTURE_FORMAT_NAMES } from "../core/catalog-format";
import type { NewProductForm, ProductForm } from "../core/product-form-schema";
import { hasPicture, PictureError, preparePictureBytes, storePicture } from "./picture-import.server";

/**
 * The back office's product editing: create, save, archive, restore and
 * delete one product, each in one transaction with its audit entry
 * (`product:<id>`, only the fields it changed). Every write to `products` is
 * a catalogue change the triggers record (drizzle/0008), so every process's
 * search index applies just this product when it commits (docs/decisions/0026).
 */

const FOREIGN_KEY_VIOLATION = "23503";

/** A product as its back-office page shows and the audit log compares it: money in cents. */
// A type, not an interface: the audit log's changedFields takes it as a record.
export type EditableProduct = {
  id: number;
  sku: string;
  name: string;
  brand: string;
  category: string;
  priceCents: number;
  stock: number;
  description: string;
  /** Its tax class; null for the standard rate. */
  taxClass: string | null;
  image: string;
  archived: boolean;
};

const editableColumns = {
  id: products.id,
  sku: products.sku,
  name: products.name,
  brand: products.bandName,
  category: products.category,
  // Named so for the audit log's entries, old and new: whole minor units of the shop's currency.
  priceCents: products.priceMinor,
  // Its variants' sum: a product of one variant has its one level.
  stock: productUnitsOnHand,
  description: products.description,
  taxClass: products.taxClass,
  image: products.image,
  archived: sql<boolean>`${products.archivedAt} is not null`,
};

/** One product as the back office edits it (archived or not), or null when there is none. */
export async function productForEditing(
  db: Pick<Database, "select">,
  id: number,
  { lock = false }: { lock?: boolean } = {},
): Promise<EditableProduct | null> {
  const query = db.select(editableColumns).from(products).where(eq(products.id, id));
  const [row] = lock ? await query.for("update", { of: products }) : await query;
  return row ?? null;
}

/** A stock level of a live (not archived) variant. */
const liveLevel = sql`exists (select 1 from ${productVariants} v where v.id = ${stockLevels.variantId} and v.archived_at is null)`;

/** Why a save or a deletion changed nothing, with the field the message belongs to. */
export type EditRefusal = {
  field: "sku" | "brand" | "category" | "price" | "stock" | "picture" | "product";
  message: string;
  /** A stock refused because it changed meanwhile: the units on hand now, which the form then counts from. */
  stockNow?: number;
};

/** Thrown inside a transaction to roll it back, answered as a refusal. */
class Refused extends Error {
  constructor(readonly refusal: EditRefusal) {
    super(refusal.message);
  }
}

/**
 * The uploaded picture made into the shop's sizes and stored (by its
 * content's hash: storing it before the product is harmless, the same bytes
 * are the same picture). A file the shop cannot read is named in the refusal.
 */
export async function uploadedPicture(
  db: Database,
  file: File,
): Promise<{ image: string } | { refused: EditRefusal }> {
  try {
    const bytes = Buffer.from(await file.arrayBuffer());
    const prepared = await preparePictureBytes(bytes, (name) => hasPicture(db, name));
    await storePicture(db, prepared.files);
    return { image: prepared.image };
  } catch (error) {
    if (!(error instanceof PictureError)) throw error;
    const name = file.name || "The file";
    return {
      refused: {
        field: "picture",
        message: `${name} is not a picture the shop can read: it takes ${PICTURE_FORMAT_NAMES}.`,
      },
    };
  }
}

/** The form's values as the product's columns (the price in whole minor units, as the form read it). */
function columnsOf(form: ProductForm | NewProductForm, cents: number) {
  return {
    name: form.name,
    // A new product's SKU left empty: the column's default makes one.
    ...(form.sku ? { sku: form.sku } : {}),
    bandName: form.brand,
    category: form.category,
    priceMinor: cents,
    description: form.description ?? "",
    taxClass: form.taxClass ?? null,
  };
}

/** A brand or category the form names that the catalogue does not have: refused with its field. */
async function checkLabels(tx: Transaction, form: ProductForm | NewProductForm): Promise<void> {
  const [brand] = await tx.select({ value: brands.value }).from(brands).where(eq(brands.value, form.brand));
  if (!brand) throw new Refused({ field: "brand", message: "Choose a brand from the list." });
  const [category] = await tx
    .select({ value: categories.value })
    .from(categories)
    .where(eq(categories.value, form.category));
  if (!category) throw new Refused({ field: "category", message: "Choose a category from the list." });
}

/** A SKU another product has: refused with that product's name, so the owner knows which. */
async function checkSku(tx: Transaction, sku: string | undefined, id?: number): Promise<void> {
  if (!sku) return;
  const [other] = await tx
    .select({ name: products.name })
    .from(products)
    .where(id === undefined ? eq(products.sku, sku) : and(eq(products.sku, sku), ne(products.id, id)));
  if (other) {
    throw new Refused({
      field: "sku",
      message: `Another product has the SKU ${sku}: ${other.name}. Each product's SKU must be unique.`,
    });
  }
}

/**
 * A product sold in several variants has their prices and stock (docs/decisions/0045): the form's
 * one price and one stock cannot say which variant they are, so a change of either is refused.
 */
async function checkOneVariant(tx: Transaction, id: number, before: EditableProduct, form: ProductForm) {
  if (form.price === before.priceCents && form.stock === (form.stockShown ?? before.stock)) return;
  const [row] = await tx
    .select({ variants: productVariantCount, options: productOptionCount })
    .from(products)
    .where(eq(products.id, id));
  const variants = row?.variants ?? 1;
  // A product with options, even of one variant left, is its variants' (/admin/products/<id>/variants).
  if (variants > 1 || (row?.options ?? 0) > 0) {
    throw new Refused({
      field: form.price === before.priceCents ? "stock" : "price",
      message:
        variants > 1
          ? `This product is sold in ${variants} variants: each has its own price and stock, set per variant.`
          : "This product has options: its price and stock are set per variant.",
    });
  }
}

async function refusedOr<T>(work: () => Promise<T>): Promise<T | { refused: EditRefusal }> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Refused) return { refused: error.refusal };
    // Taken by a save or an import between the check and the write: the unique index has the last word.
    if (failedWith(error, UNIQUE_VIOLATION, "products_sku_idx")) {
      return {
        refused: {
          field: "sku",
          message: "Another product has this SKU. Each product's SKU must be unique.",
        },
      };
    }
    throw error;
  }
}

/** A new product with its stock, written with its audit entry; a new random SKU when the form gives none. */
export async function createProduct(
  db: Database,
  actor: Actor,
  form: NewProductForm,
  image: string,
): Promise<{ id: number } | { refused: EditRefusal }> {
  const cents = form.price;
  return refusedOr(() =>
    db.transaction(async (tx) => {
      await checkSku(tx, form.sku);
      await checkLabels(tx, form);
      const [created] = await tx
        .insert(products)
        .values({ ...columnsOf(form, cents), image, ratings: 0, creationDate: new Date() })
        .returning({ id: products.id });
      if (!created) throw new Error("the product just written is missing");
      // Its one variant and that variant's level of 0 came with it (drizzle/0021, 0022).
      await tx.update(stockLevels).set({ onHand: form.stock }).where(eq(stockLevels.productId, created.id));
      const after = await productForEditing(tx, created.id);
      if (!after) throw new Error("the product just written is missing");
      await recordChange(tx, actor, {
        action: "product.created",
        subject: `product:${created.id}`,
        subjectName: productName(after),
        after,
      });
      return { id: created.id };
    }),
  );
}

/**
 * Saves the form over a product. The stock is set only if the units on hand
 * are still those the page showed (`stockShown`): sales go on while the
 * owner types, and a count made before one must not undo it. Otherwise the
 * whole save is refused, naming what is on hand now, and nothing changes.
 */
export async function saveProduct(
  db: Database,
  actor: Actor,
  id: number,
  form: ProductForm,
  image: string | undefined,
): Promise<{ saved: true } | { refused: EditRefusal } | null> {
  const cents = form.price;
  return refusedOr(() =>
    db.transaction(async (tx) => {
      // Locked: two saves of one product at once record each other's result as their "before".
      const before = await productForEditing(tx, id, { lock: true });
      if (!before) return null;
      await checkSku(tx, form.sku, id);
      await checkLabels(tx, form);
      await checkOneVariant(tx, id, before, form);
      const shown = form.stockShown ?? before.stock;
      const settingStock = form.stock !== shown;
      if (settingStock) {
        const set = await tx
          .update(stockLevels)
          .set({ onHand: form.stock })
          // Its one live variant's level: an archived variant keeps its own.
          .where(and(eq(stockLevels.productId, id), eq(stockLevels.onHand, shown), liveLevel))
          .returning({ onHand: stockLevels.onHand });
        if (set.length === 0) {
          const now = (await productForEditing(tx, id))?.stock ?? 0;
          throw new Refused({
            field: "stock",
            message: `Stock changed since you opened this page: now ${now}.`,
            stockNow: now,
          });
        }
      }
      const wanted = {
        name: form.name,
        sku: form.sku,
        brand: form.brand,
        category: form.category,
        priceCents: cents,
        description: form.description ?? "",
        taxClass: form.taxClass ?? null,
        image: image ?? before.image,
      };
      const { stock: _stock, ...productBefore } = before;
      // A product row is written only when one of its own fields changed: each write is a catalogue change.
      if (changedFields(productBefore, wanted)) {
        await tx
          .update(products)
          .set({ ...columnsOf(form, cents), image: wanted.image })
          .where(eq(products.id, id));
      }
      // The stock is a change only when it was set: a sale made since the page opened is not the editor's.
      const changes = changedFields(before, { ...wanted, ...(settingStock ? { stock: form.stock } : {}) });
      if (changes) {
        await recordChange(tx, actor, {
          action: "product.updated",
          subject: `product:${id}`,
          // Named as it is from now on; the name or SKU it had is found too.
          subjectName: productName(wanted),
          names: [changes.before.name, changes.before.sku].filter((name) => name !== undefined),
          ...changes,
        });
      }
      return { saved: true as const };
    }),
  );
}

/** Archives (hidden from the shop, kept for past orders) or restores a product; a repeat changes nothing. */
export async function setProductArchived(
  db: Database,
  actor: Actor,
  id: number,
  archived: boolean,
): Promise<{ changed: boolean } | null> {
  return db.transaction(async (tx) => {
    const [updated] = await tx
      .update(products)
      .set({ archivedAt: archived ? new Date() : null })
      .where(
        and(
          eq(products.id, id),
          archived ? sql`${products.archivedAt} is null` : sql`${products.archivedAt} is not null`,
        ),
      )
      .returning({ name: products.name, sku: products.sku });
    if (!updated) {
      const [exists] = await tx.select({ id: products.id }).from(products).where(eq(products.id, id));
      return exists ? { changed: false } : null;
    }
    await recordChange(tx, actor, {
      action: archived ? "product.archived" : "product.restored",
      subject: `product:${id}`,
      subjectName: productName(updated),
      before: { archived: !archived },
      after: { archived },
    });
    return { changed: true };
  });
}

const ORDERED_PRODUCT = "Orders name this product: archive it instead.";

/**
 * Deletes a product no order names (its stock level goes with it); one an
 * order names is refused (order_lines restricts it: the books keep it).
 */
export async function deleteProduct(
  db: Database,
  actor: Actor,
  id: number,
): Promise<{ deleted: true } | { refused: EditRefusal } | null> {
  try {
    return await refusedOr(() =>
      db.transaction(async (tx) => {
        const before = await productForEditing(tx, id);
        if (!before) return null;
        const [ordered] = await tx
          .select({ productId: orderLines.productId })
          .from(orderLines)
          .where(eq(orderLines.productId, id))
          .limit(1);
        if (ordered) throw new Refused({ field: "product", message: ORDERED_PRODUCT });
        await tx.delete(products).where(eq(products.id, id));
        await recordChange(tx, actor, {
          action: "product.deleted",
          subject: `product:${id}`,
          subjectName: productName(before),
          before,
        });
        return { deleted: true as const };
      }),
    );
  } catch (error) {
    // An order placed between the check and the delete: the constraint has the last word.
    if (failedWith(error, FOREIGN_KEY_VIOLATION))
      return { refused: { field: "product", message: ORDERED_PRODUCT } };
    throw error;
  }
}
