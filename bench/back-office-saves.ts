/**
 * The back office's side of \`npm run bench -- index-changes\`: an owner's
 * session, and a price saved through the product form as a browser sends it,
 * timed until every process serves it.
 */
import type pg from "pg";
import type { ShopProcess } from "../tests/support/shop-process";
import { appliedAt, cheapest, type Probe, type Served } from "./index-changes-measures";

/**
 * An owner's session on `shop`: an account signed up through its form, made
 * an owner in the database (as \`npm run owner:add\` does).
 */
export async function ownerSession(shop: ShopProcess, client: pg.Client): Promise<string> {
  const email = `bench-owner-${Date.now()}@example.com`;
  const response = await fetch(`${shop.url}/sign-up`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      name: "Bench Owner",
      email,
      photo: "https://e.com/b.png",
      password: "Str0ng!Pass-bench",
    }),
  });
  await response.arrayBuffer();
  const cookie = response.headers
    .getSetCookie()
    .map((value) => value.split(";")[0])
    .join("; ");
  if (response.status !== 302 || !cookie)
    throw new Error(`the bench owner's sign-up answered ${response.status}`);
  await client.query("update users set role = 'owner' where email = $1", [email]);
  return cookie;
}

/**
 * Saves `price` for product `id` through the back office's product form on
 * the first process, as a browser without JavaScript sends it (every field
 * as the page showed it, the price changed), then waits, for each process,
 * for the revision the save made and an answer showing it. Timed from the
 * save's answer: the change committed before it was sent.
 */
export async function timeSave(
  client: pg.Client,
  shops: ShopProcess[],
  probe: Probe,
  cookie: string,
  id: number,
  price: number,
): Promise<Served[]> {
  const { rows } = await client.query<{
    name: string;
    sku: string;
    band_name: string;
    category: string;
    description: string;
    on_hand: number;
  }>(
    `select name, sku, band_name, category, description, coalesce(on_hand, 0) as on_hand
       from products left join stock_levels on stock_levels.product_id = products.id where id = $1`,
    [id],
  );
  const product = rows[0];
  if (!product) throw new Error(`no product ${id}`);
  await Promise.all(shops.map((_, at) => probe(at)));
  const response = await fetch(`${(shops[0] as ShopProcess).url}/admin/products/${id}`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({
      intent: "save",
      name: product.name,
      sku: product.sku,
      brand: product.band_name,
      category: product.category,
      price: price.toFixed(2),
      stock: String(product.on_hand),
      stockShown: String(product.on_hand),
      description: product.description,
    }),
  });
  await response.arrayBuffer();
  const saved = performance.now();
  if (response.status !== 302) throw new Error(`the back office's save answered ${response.status}`);
  const { rows: revisions } = await client.query<{ revision: string }>(
    "select revision from catalog_revisions",
  );
  const revision = Number(revisions[0]?.revision);
  return Promise.all(
    shops.map(async (shop, at) => {
      const logged = JSON.parse(await shop.waitForOutput(appliedAt(revision), 60_000)) as {
        milliseconds: number;
      };
      const answer = await cheapest(shop);
      const servedMs = performance.now() - saved;
      if (answer.id !== id || answer.price !== price) {
        throw new Error(
          `after revision ${revision}, ${shop.url} answered ${JSON.stringify(answer)}, not ${id} at ${price}`,
        );
      }
      const { cpuMs, max } = await probe(at);
      return { servedMs, appliedMs: logged.milliseconds, cpuMs, loopMaxMs: max };
    }),
  );
}
