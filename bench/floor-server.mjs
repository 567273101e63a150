/**
 * The floor of the work for add to cart and checkout (issue 32): a minimal
 * `node:http` + `pg` server answering the two JSON calls bench/shop.ts sends
 * (`POST /api/cart/lines` with the cart cookie, `POST /api/checkout` with an
 * Idempotency-Key) with the SAME SQL statements the shop runs for them, in the
 * same transactions and order, on the same database, through a pool of the
 * same size and settings (app/db/client.server.ts). Nothing else: no router,
 * no schema library, no rate limit, no Origin check, a short email instead of
 * the shop's rendered one. What the shop costs above this is its own code.
 *
 * The statements were captured from the shop, not read off its source:
 * bench/floor-check.ts runs the shop with bench/statement-capture.mjs loaded
 * (it records every statement pg sends, by request), sends one guest's three
 * adds and a checkout, does the same here, and compares the two lists. When
 * the shop's SQL changes (app/features/cart/cart.server.ts,
 * app/features/orders/place-order.server.ts, app/utils/mail-queue.server.ts,
 * app/utils/shop-settings.server.ts), that check fails: copy the new texts
 * it prints into SQL below. `npm run bench -- shop` runs it before measuring.
 *
 * One add: the cart made or kept and the line written in one statement, then
 * the cart read back. One checkout: the guest's cart found; the shop's
 * settings (at most once a second, as the shop caches them); then, in one
 * transaction, the key claimed with the order's row, the cart locked and
 * read, the products' names and prices read, the lines written, the cart
 * emptied, the totals written, the confirmation email queued, and last the
 * stock rows locked in product order and all taken by one conditional
 * update; after the commit, the mail sender (as the shop's, woken by it)
 * claims due messages ten at a time and marks each sent (it writes no file).
 *
 * `node bench/floor-server.mjs` with DATABASE_URL (PORT, default 0: any;
 * DATABASE_POOL_SIZE, default 10, the shop's). Prints `floor listening on <port>`
 * and, under a parent process, sends it the port.
 */
import { createHash, randomBytes, randomInt } from "node:crypto";
import http from "node:http";
import pg from "pg";
import { SQL } from "./floor-statements.mjs";

const POOL_SIZE = Number(process.env.DATABASE_POOL_SIZE ?? 10);
/** The shop's defaults (app/utils/env.server.ts), in cents; a shop_settings row overrides each. */
const DEFAULT_SHIPPING = {
  standardShippingCents: 499,
  freeShippingFromCents: 5_000,
  expressShippingCents: 1_499,
};
/**
 * The names the shop reads in one statement (app/utils/shop-settings.server.ts), in its order: the
 * floor uses only the shipping amounts, but sends the shop's very statement (bench/floor-check.ts).
 */
const SETTING_NAMES = [
  "currency",
  "locale",
  "standardShippingCents",
  "freeShippingFromCents",
  "expressShippingCents",
  "bankDetails",
  "lowStockAt",
  "fewLeftAt",
];
const GUEST_CART_DAYS = 30;
const MOST_IN_ONE_LINE = 99;
const MAIL_BATCH = 10;
const MAIL_LEASE_SECONDS = 120;
const NUMBER_DRAWS = 3;

/** The shop's currency, as the shop under test has it (SHOP_CURRENCY, default USD). */
const CURRENCY = process.env.SHOP_CURRENCY || "USD";

// The shop's pool (app/db/client.server.ts): its size, time limits and session settings.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: POOL_SIZE,
  connectionTimeoutMillis: 3_000,
  query_timeout: 6_000,
  keepAlive: true,
  options:
    "-c max_parallel_workers_per_gather=0 -c statement_timeout=5000 -c idle_in_transaction_session_timeout=10000",
});
pool.on("error", () => {});

const hashOf = (token) => createHash("sha256").update(token).digest("base64url");
const CART_COOKIE = /(?:^|;\s*)backline_cart=([A-Za-z0-9_-]{43})(?:;|$)/;
const cartCookie = (token) =>
  `backline_cart=${token}; Path=/; Max-Age=${GUEST_CART_DAYS * 24 * 60 * 60}; HttpOnly; SameSite=Lax`;

function answer(response, status, body, headers = {}) {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": Buffer.byteLength(text),
    "Cache-Control": "no-store",
    ...headers,
  });
  response.end(text);
}

const refusal = (code, message, field) => ({ error: { code, message, ...(field ? { field } : {}) } });

async function cartAnswer(cartId) {
  const { rows } = await pool.query({ text: SQL.readCart, values: [cartId], rowMode: "array" });
  let itemCount = 0;
  let subtotalCents = 0;
  const lines = rows.map(
    ([
      productId,
      variantId,
      name,
      sku,
      options,
      image,
      priceText,
      seenText,
      currencySeen,
      quantity,
      stock,
    ]) => {
      // bigint columns come back as text, as in the shop (cart.server.ts).
      const unitPriceCents = Number(priceText);
      const seen = Number(seenText);
      itemCount += quantity;
      subtotalCents += unitPriceCents * quantity;
      const line = {
        id: variantId,
        productId,
        variantId,
        name,
        sku,
        options,
        image,
        unitPrice: unitPriceCents / 100,
        quantity,
      };
      return {
        ...line,
        lineTotal: (unitPriceCents * quantity) / 100,
        stock,
        priceChanged: currencySeen === CURRENCY && unitPriceCents !== seen,
      };
    },
  );
  return { lines, itemCount, subtotal: subtotalCents / 100 };
}

const isWhole = (value, least, most) => Number.isInteger(value) && value >= least && value <= most;

async function addLine(request, response, body) {
  const { productId, variantId = null, quantity } = body ?? {};
  if (!isWhole(productId, 1, 2_147_483_647)) {
    return answer(response, 400, refusal("invalid_field", "productId must be a product's id.", "productId"));
  }
  if (variantId !== null && !isWhole(variantId, 1, 2_147_483_647)) {
    return answer(
      response,
      400,
      refusal("invalid_field", "variantId must be one of the product's variants.", "variantId"),
    );
  }
  if (!isWhole(quantity, 1, MOST_IN_ONE_LINE)) {
    return answer(response, 400, refusal("invalid_field", "Quantity must be 1 to 99.", "quantity"));
  }
  const token = CART_COOKIE.exec(request.headers.cookie ?? "")?.[1] ?? randomBytes(32).toString("base64url");
  const values = [hashOf(token), GUEST_CART_DAYS, productId, variantId, variantId, productId];
  values.push(quantity, MOST_IN_ONE_LINE, CURRENCY, quantity, MOST_IN_ONE_LINE);
  let row;
  try {
    [row] = (await pool.query(SQL.add, values)).rows;
  } catch (error) {
    // Sold out since it was read: least(…, 0) breaks the 1–99 check (23514), as in the shop.
    if (error.code !== "23514") throw error;
  }
  // The shop then reads why (no such product, a variant to choose); the bench sends neither.
  if (row && row.variantId === null) {
    return answer(response, 404, refusal("unknown_product", "There is no such product.", "productId"));
  }
  if (!row || row.quantity === null) {
    return answer(response, 409, refusal("sold_out", "This product is sold out: 0 left.", "productId"));
  }
  const cart = await cartAnswer(row.cartId);
  const capped = Number(row.quantity) < Number(row.before ?? 0) + quantity;
  const notice = capped ? { notice: `Only ${row.stock} left: your cart holds ${row.quantity}.` } : {};
  answer(response, 200, { ...cart, ...notice }, { "Set-Cookie": cartCookie(token) });
}

let settings = { value: DEFAULT_SHIPPING, readAt: Number.NEGATIVE_INFINITY };

/** The shop's settings, read at most once a second, as the shop does. */
async function shippingRates() {
  if (Date.now() - settings.readAt < 1_000) return settings.value;
  const { rows } = await pool.query(SQL.settings(SETTING_NAMES.length), SETTING_NAMES);
  const value = { ...DEFAULT_SHIPPING };
  for (const row of rows) if (row.name in value) value[row.name] = row.value;
  // Then, as the shop, its tax and shipping setup (none saved in the bench: the shipping settings
  // price the order, and no tax).
  await pool.query(SQL.taxSetup, ["taxAndShipping"]);
  settings = { value, readAt: Date.now() };
  return value;
}

class Refused extends Error {
  constructor(status, body) {
    super(body.error.code);
    this.status = status;
    this.body = body;
  }
}

/** The order's transaction: the shop's statements, in its order. */
async function placeIn(client, order) {
  const { cartId, key, checkout, rates } = order;
  const claimed = await client.query(SQL.claimKey, [
    `BL-${Array.from({ length: 5 }, () => "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[randomInt(32)]).join("")}`,
    `cart:${cartId}`,
    key,
    order.requestHash,
    null,
    checkout.email,
    JSON.stringify(checkout.shippingAddress),
    checkout.shippingMethod,
    checkout.paymentMethod,
    "placed",
    null,
    CURRENCY,
  ]);
  // The bench sends every key once; a second use is refused here rather than replayed as the shop does.
  if (claimed.rows.length === 0) throw new Refused(409, refusal("key_seen", "This key was used."));
  const orderId = claimed.rows[0].id;
  await client.query(SQL.lockCart, [cartId]);
  const byVariant = new Map();
  for (const line of (await client.query(SQL.cartLines, [cartId])).rows) {
    const before = byVariant.get(line.variantId)?.quantity ?? 0;
    byVariant.set(line.variantId, { ...line, quantity: before + line.quantity });
  }
  const inOrder = (a, b) => a.productId - b.productId || a.variantId - b.variantId;
  const lines = [...byVariant.values()].sort(inOrder);
  if (lines.length === 0) throw new Refused(409, refusal("cart_empty", "Your cart is empty."));
  const sold = await client.query({
    text: SQL.sold,
    values: [lines.map((line) => line.variantId)],
    rowMode: "array",
  });
  const soldLines = sold.rows
    .map(([variantId, productId, name, sku, options, priceText]) => {
      const unitPriceCents = Number(priceText);
      const { quantity } = byVariant.get(variantId);
      return {
        productId,
        variantId,
        name,
        sku,
        options,
        unitPriceCents,
        quantity,
        lineTotalCents: unitPriceCents * quantity,
      };
    })
    .sort(inOrder);
  await client.query(SQL.orderLines, [
    orderId,
    soldLines.map((line) => line.productId),
    soldLines.map((line) => line.variantId),
    soldLines.map((line) => line.name),
    soldLines.map((line) => line.sku),
    soldLines.map((line) => JSON.stringify(line.options)),
    soldLines.map((line) => line.unitPriceCents),
    soldLines.map((line) => line.quantity),
    soldLines.map((line) => line.lineTotalCents),
    // The shop's default setup charges no tax: each line's is 0.
    soldLines.map(() => 0),
  ]);
  await client.query(SQL.emptyCart, [cartId]);
  const subtotalCents = soldLines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  const free = checkout.shippingMethod === "standard" && subtotalCents >= rates.freeShippingFromCents;
  const shippingCents =
    checkout.shippingMethod === "express"
      ? rates.expressShippingCents
      : free
        ? 0
        : rates.standardShippingCents;
  const totalCents = subtotalCents + shippingCents;
  const methodName = checkout.shippingMethod === "express" ? "Express" : "Standard";
  const { rows } = await client.query(SQL.totals, [
    ...[subtotalCents, shippingCents, totalCents, 0, "[]", false, methodName],
    orderId,
  ]);
  const { number, status } = rows[0];
  const text = `Thank you for your order ${number}.\n\n${soldLines.map((line) => `${line.quantity} × ${line.name}`).join("\n")}\n\nTotal: $${(totalCents / 100).toFixed(2)}`;
  const html = `<!doctype html><p>${text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll("\n", "<br>")}</p>`;
  await client.query(SQL.queueMail, [
    "order-confirmation",
    checkout.email,
    `Your order ${number}`,
    text,
    html,
    null,
  ]);
  // The stock last, as the shop takes it: its locks held only until the commit.
  await client.query(SQL.lockStock, [
    [...new Set(lines.map((line) => line.productId))].sort((a, b) => a - b),
  ]);
  const taken = await client.query(SQL.takeStock, [
    lines.map((line) => line.productId),
    lines.map((line) => line.variantId),
    lines.map((line) => line.quantity),
  ]);
  if (taken.rows.length < lines.length) {
    throw new Refused(409, refusal("stock_short", "Not that many left."));
  }
  return { number, status, soldLines, subtotalCents, shippingCents, totalCents };
}

async function checkoutCart(request, response, body) {
  const key = request.headers["idempotency-key"];
  if (typeof key !== "string" || !/^[\w.:-]{8,200}$/.test(key)) {
    return answer(response, 400, refusal("invalid_header", "Send an Idempotency-Key.", "Idempotency-Key"));
  }
  const checkout = body ?? {};
  for (const field of ["email", "shippingMethod", "paymentMethod"]) {
    if (typeof checkout[field] !== "string")
      return answer(response, 400, refusal("invalid_field", field, field));
  }
  if (typeof checkout.shippingAddress !== "object" || checkout.shippingAddress === null) {
    return answer(response, 400, refusal("invalid_field", "shippingAddress", "shippingAddress"));
  }
  const token = CART_COOKIE.exec(request.headers.cookie ?? "")?.[1];
  const cart = token ? (await pool.query(SQL.guestCart, [hashOf(token)])).rows[0] : undefined;
  const rates = await shippingRates();
  if (!cart) return answer(response, 409, refusal("cart_empty", "Your cart is empty."));
  const { email, shippingAddress: a, shippingMethod, paymentMethod } = checkout;
  const asked = [
    null,
    email,
    [a.name, a.line1, a.line2 ?? "", a.city, a.postalCode, a.country],
    shippingMethod,
    paymentMethod,
  ];
  const requestHash = createHash("sha256").update(JSON.stringify(asked)).digest("base64url");
  for (let draw = 1; ; draw++) {
    const client = await pool.connect();
    try {
      await client.query("begin");
      const placed = await placeIn(client, { cartId: cart.id, key, checkout, rates, requestHash });
      await client.query("commit");
      wakeMailSender();
      const order = {
        number: placed.number,
        status: placed.status,
        lines: placed.soldLines.map((line) => ({
          productId: line.productId,
          name: line.name,
          unitPrice: line.unitPriceCents / 100,
          quantity: line.quantity,
          lineTotal: line.lineTotalCents / 100,
        })),
        subtotal: placed.subtotalCents / 100,
        shipping: placed.shippingCents / 100,
        total: placed.totalCents / 100,
      };
      return answer(response, 201, { order });
    } catch (error) {
      await client.query("rollback").catch(() => {});
      if (error instanceof Refused) return answer(response, error.status, error.body);
      // An order number drawn twice, or a lock cycle PostgreSQL broke: nothing written, so again (as the shop).
      const again = error.constraint === "orders_number_unique" || error.code === "40P01";
      if (!again || draw >= NUMBER_DRAWS) throw error;
    } finally {
      client.release();
    }
  }
}

/** The shop's mail sender (app/utils/mail-queue.server.ts), without the delivery: claim, mark sent, look again. */
let mailWanted = false;
let mailRunning = null;

async function mailPasses() {
  while (mailWanted) {
    mailWanted = false;
    const { rows } = await pool.query(SQL.claimMail, [MAIL_LEASE_SECONDS, MAIL_BATCH]);
    for (const message of rows) {
      await pool.query(SQL.mailSent, ["sent", null, message.id]);
    }
    if (rows.length === MAIL_BATCH) mailWanted = true;
  }
  await pool.query(SQL.nextMailDue);
}

function wakeMailSender() {
  mailWanted = true;
  if (mailRunning) return;
  mailRunning = mailPasses()
    .catch((error) => console.error(`mail sender: ${error.message}`))
    .finally(() => {
      mailRunning = null;
      if (mailWanted) wakeMailSender();
    });
}

const ROUTES = { "/api/cart/lines": addLine, "/api/checkout": checkoutCart };

async function respond(request, response) {
  const route = request.method === "POST" ? ROUTES[request.url] : undefined;
  if (!route) return answer(response, 404, refusal("not_found", "No such call here."));
  const chunks = [];
  for await (const chunk of request) chunks.push(chunk);
  let body;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return answer(response, 400, refusal("invalid_json", "The body must be JSON."));
  }
  await route(request, response, body);
}

const server = http.createServer((request, response) => {
  respond(request, response).catch((error) => {
    console.error(`${request.url}: ${error.message}`);
    if (!response.headersSent) answer(response, 500, refusal("internal", "Something failed."));
  });
});

// The shop's sender sweeps old rows and looks at the queue when it starts; so does this one.
await pool.query(SQL.sweepMail, ["pending"]);
wakeMailSender();
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = server.address();
  console.log(`floor listening on ${port}`);
  process.send?.(port);
});
const stop = () => server.close(() => pool.end().then(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
