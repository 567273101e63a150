import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { products } from "~/db/schema";
import { sendForm } from "../../tests/support/form-post";
import { placeTestOrder, productInStock, shopContext } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { loader as activityLoader } from "./admin.activity";
import { action as orderAction } from "./admin.order";
import { action as peopleAction } from "./admin.people";
import { action as productAction } from "./admin.product";

/**
 * /admin/activity as an owner reads it, after real changes made through the
 * back office's own forms: a product edited, an order cancelled (its stock
 * put back), an order shipped without a tracking number, a role changed, a
 * product renamed and one deleted. Each entry reads as a sentence that names
 * what it was done to — the product by name and SKU, the order by number,
 * the person by email — and a search by any of those finds it.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("the activity log on $name");

const PASSWORD = "Str0ng!Pass";

describe.each(engines)("the activity log on $name", (engine: TestDatabase) => {
  const { context, signedUp, signedUpAs, orders: services } = shopContext(engine);
  const suffix = randomUUID().slice(0, 6);
  const ownerEmail = `owner-${suffix}@example.com`;
  const helperEmail = `helper-${suffix}@example.com`;
  const kettle = { name: `Steel Kettle ${suffix}`, sku: `KT-${suffix}` };
  let owner = "";
  let kettleId = 0;
  let cancelled = "";
  let shipped = "";

  const placed = (productId: number, quantity: number, paymentMethod: "bank-transfer" | "cash-on-delivery") =>
    placeTestOrder(services.mail, productId, quantity, {
      email: `shopper-${suffix}@example.com`,
      paymentMethod,
    });

  /** The form a product's page sends, with its fields as the page shows them and `changes` typed over. */
  const productForm = (changes: Record<string, string>) => ({
    intent: "save",
    name: kettle.name,
    sku: kettle.sku,
    brand: "blendMaster",
    category: "home goods",
    price: "12.50",
    stock: "10",
    stockShown: "10",
    description: "Makes tea.",
    ...changes,
  });

  const saveProduct = (id: number, form: Record<string, string>) =>
    sendForm(
      (args: { params: Record<string, string> }) =>
        productAction({ ...args, params: { productId: String(id) } } as never),
      context,
      `/admin/products/${id}`,
      { cookie: owner, form },
    );
  const orderAct = (number: string, form: Record<string, string>) =>
    sendForm(
      (args: { params: Record<string, string> }) => orderAction({ ...args, params: { number } } as never),
      context,
      `/admin/orders/${number}`,
      { cookie: owner, form },
    );

  /** The sentences /admin/activity shows for `query` ("?search=…"), newest first. */
  async function sentences(query = ""): Promise<string[]> {
    const page = await sendForm(activityLoader, context, `/admin/activity${query}`, {
      cookie: owner,
      method: "GET",
    });
    expect(page.status).toBe(200);
    return ((page.body?.entries ?? []) as { sentence: string }[]).map((entry) => entry.sentence);
  }

  beforeAll(async () => {
    owner = await signedUpAs(ownerEmail, "owner");
    await signedUp(helperEmail);
    kettleId = await productInStock(engine, 10, 12.5);
    await engine.db.update(products).set(kettle).where(eq(products.id, kettleId));

    // A product edited: its price.
    expect((await saveProduct(kettleId, productForm({ price: "9.99" }))).status).toBe(302);
    // An order cancelled: its two kettles back in stock.
    cancelled = await placed(kettleId, 2, "bank-transfer");
    expect((await orderAct(cancelled, { intent: "cancel", shownStatus: "placed" })).status).toBe(303);
    // An order paid on delivery, shipped without a tracking number.
    shipped = await placed(await productInStock(engine, 5), 1, "cash-on-delivery");
    expect(
      (await orderAct(shipped, { intent: "mark-shipped", shownStatus: "placed", trackingNumber: "" })).status,
    ).toBe(303);
    // A role changed.
    const role = await sendForm(peopleAction, context, "/admin/people", {
      cookie: owner,
      form: { email: helperEmail, role: "staff", password: PASSWORD },
    });
    expect(role.status).toBe(200);
  });

  it("writes each change as a sentence naming the product, the order and the person", async () => {
    expect(await sentences()).toEqual(
      expect.arrayContaining([
        `${ownerEmail} changed ${kettle.name} (SKU ${kettle.sku}): price from $12.50 to $9.99.`,
        `${ownerEmail} cancelled order ${cancelled} and put 2 × ${kettle.name} (SKU ${kettle.sku}) back in stock.`,
        `${ownerEmail} marked order ${shipped} shipped, with no tracking number.`,
        `${ownerEmail} changed the role of Ada (${helperEmail}) from shopper to staff.`,
      ]),
    );
    expect((await sentences()).join("\n")).not.toMatch(/\[object Object\]|—|product:\d|order:|person:/);
  });

  it("finds entries by a product's name or SKU, an order's number and a person's email, in any case", async () => {
    const edited = `${ownerEmail} changed ${kettle.name} (SKU ${kettle.sku}): price from $12.50 to $9.99.`;
    const cancel = `${ownerEmail} cancelled order ${cancelled} and put 2 × ${kettle.name} (SKU ${kettle.sku}) back in stock.`;
    const search = (text: string) => sentences(`?search=${encodeURIComponent(text)}`);

    expect(await search(kettle.name.toLowerCase())).toEqual([cancel, edited]);
    expect(await search(kettle.sku)).toEqual([cancel, edited]);
    expect(await search(`kettle ${cancelled.toLowerCase()}`)).toEqual([cancel]);
    expect(await search(shipped)).toEqual([
      `${ownerEmail} marked order ${shipped} shipped, with no tracking number.`,
    ]);
    expect(await search(helperEmail.toUpperCase())).toEqual([
      `${ownerEmail} changed the role of Ada (${helperEmail}) from shopper to staff.`,
    ]);
    expect(await search(ownerEmail)).toHaveLength(4);
    expect(await search(`100%_nothing-${suffix}`)).toEqual([]);
  });

  it("keeps the name a product had when it was changed, and names a product that was deleted", async () => {
    const renamed = `Copper Kettle ${suffix}`;
    expect((await saveProduct(kettleId, productForm({ name: renamed, price: "9.99" }))).status).toBe(302);
    const teapot = await productInStock(engine, 1);
    const [row] = await engine.db.select().from(products).where(eq(products.id, teapot));
    const deleted = await sendForm(
      (args: { params: Record<string, string> }) =>
        productAction({ ...args, params: { productId: String(teapot) } } as never),
      context,
      `/admin/products/${teapot}`,
      { cookie: owner, form: { intent: "delete", password: PASSWORD } },
    );
    expect(deleted.status).toBe(302);

    const all = await sentences();
    expect(all.slice(0, 2)).toEqual([
      `${ownerEmail} deleted ${row?.name} (SKU ${row?.sku}).`,
      `${ownerEmail} changed ${renamed} (SKU ${kettle.sku}): name from ${kettle.name} to ${renamed}.`,
    ]);
    // The entries written before the rename say what the product was called then.
    expect(all).toContain(
      `${ownerEmail} changed ${kettle.name} (SKU ${kettle.sku}): price from $12.50 to $9.99.`,
    );
    // Its old name finds the rename too, and so does the new one.
    expect(await sentences(`?search=${encodeURIComponent(renamed)}`)).toHaveLength(1);
    expect(await sentences(`?search=${encodeURIComponent(kettle.name)}`)).toHaveLength(3);
    expect(await sentences(`?search=${encodeURIComponent(row?.name ?? "")}`)).toHaveLength(1);
  });

  it("refuses a search over 100 characters by name, with a 400", async () => {
    const page = await sendForm(activityLoader, context, `/admin/activity?search=${"x".repeat(101)}`, {
      cookie: owner,
      method: "GET",
    });
    expect(page.status).toBe(400);
    expect(String(page.body)).toContain("search");
  });
});
