import { renderToString } from "react-dom/server";
import { createRoutesStub, Outlet } from "react-router";
import { describe, expect, it } from "vitest";
import { servicesContext } from "~/context.server";
import { shopSettings } from "~/db/schema";
import { sendForm } from "../../tests/support/form-post";
import { ok, runLoader } from "../../tests/support/route-loader";
import { productInStock, SETTINGS_FORM, shopContext } from "../../tests/support/shop-context";
import {
  openTestDatabases,
  reportPostgresSkipped,
  type TestDatabase,
} from "../../tests/support/test-database";
import { loader as rootLoader } from "../root";
import { action as saveSettings } from "./admin.settings";
import ProductPage, { loader as productLoader } from "./product";

/**
 * The owner's "Only N left" line, as shoppers meet it: saved at
 * /admin/settings, given to every page by the root loader, and said by the
 * product page's buy box the way its server render writes it.
 */
const engines = await openTestDatabases();
reportPostgresSkipped("the few-left setting");

describe.each(engines)("the few-left setting on $name", (engine: TestDatabase) => {
  const { context, signedUpAs } = shopContext(engine);

  /** The product page's HTML as its server render writes it, with the root's data beside it. */
  async function productPage(id: number): Promise<string> {
    const services = context.get(servicesContext);
    // The address without the product's name answers with a redirect to its own: follow it.
    const moved = await runLoader(productLoader, `/products/${id}`, services, { product: String(id) });
    const path = moved.location ?? `/products/${id}`;
    const product = await runLoader(productLoader, path, services, { product: path.split("/")[2] ?? "" });
    const root = await sendForm(rootLoader, context, path, { method: "GET" });
    const Stub = createRoutesStub([
      {
        id: "root",
        path: "/",
        Component: Outlet,
        children: [
          { id: "product", path: "products/:product", Component: ProductPage as React.ComponentType },
        ],
      },
    ]);
    return renderToString(
      <Stub
        initialEntries={[path]}
        hydrationData={{ loaderData: { root: root.body, product: ok(product.body) } }}
      />,
    );
  }

  /** What the buy box says of the stock, as a screen reader reads it. */
  function buyBoxStock(html: string): string {
    const buyBox = /<section aria-label="Buy"[^>]*>[\s\S]*?<\/section>/.exec(html)?.[0];
    if (!buyBox) throw new Error("no buy box on the product page");
    const stock = /<p class="inline-flex[^>]*>([\s\S]*?)<\/p>/.exec(buyBox)?.[1] ?? "";
    return stock.replace(/<[^>]+>/g, "").trim();
  }

  it("an owner's line of 2: 3 units read “In stock”, 2 read “Only 2 left”", async () => {
    await engine.db.delete(shopSettings);
    const three = await productInStock(engine, 3);
    const two = await productInStock(engine, 2);
    // The configuration's line first (5): both are few.
    expect(buyBoxStock(await productPage(three))).toBe("Only 3 left");

    const owner = await signedUpAs(
      `owner-few-${engine.name.toLowerCase()}-${Date.now()}@example.com`,
      "owner",
    );
    const saved = await sendForm(saveSettings, context, "/admin/settings", {
      cookie: owner,
      form: { ...SETTINGS_FORM, fewLeftAt: "2" },
    });
    expect(saved.status).toBe(200);

    const root = await sendForm(rootLoader, context, "/", { method: "GET" });
    expect(root.body?.shop).toEqual({ fewLeftAt: 2 });
    expect(buyBoxStock(await productPage(three))).toBe("In stock");
    expect(buyBoxStock(await productPage(two))).toBe("Only 2 left");
  });

  it("a line of 0 never says how many are left, only “Sold out”", async () => {
    await engine.db.delete(shopSettings);
    const one = await productInStock(engine, 1);
    const none = await productInStock(engine, 0);
    const owner = await signedUpAs(
      `owner-never-${engine.name.toLowerCase()}-${Date.now()}@example.com`,
      "owner",
    );
    await sendForm(saveSettings, context, "/admin/settings", {
      cookie: owner,
      form: { ...SETTINGS_FORM, fewLeftAt: "0" },
    });

    expect(buyBoxStock(await productPage(one))).toBe("In stock");
    expect(buyBoxStock(await productPage(none))).toBe("Sold out");
  });
});
