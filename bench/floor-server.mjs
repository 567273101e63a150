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

/** Each statement's text as the shop sends it (comments and line breaks aside: floor-check.ts ignores them). */
/** The shop's currency, as the shop under test has it (SHOP_CURRENCY, default USD). */
const CURRENCY = process.env.SHOP_CURRENCY || "USD";

const SQL = {
  add: `
    with cart as (insert into "carts" (token_hash, expires_at)
          values ($1, now() + $2 * interval '1 day')
          on conflict (token_hash) do update set expires_at = excluded.expires_at returning id),
    product as (
      select s.on_hand, "products"."price_minor" as price_cents
        from "products" join "stock_levels" s on s.product_id = "products"."id"
       where "products"."id" = $3 and "products"."archived_at" is null),
    before as (
      select l.quantity from "cart_lines" l join cart on l.cart_id = cart.id where l.product_id = $4),
    line as (
      insert into "cart_lines" (cart_id, product_id, quantity, unit_price_cents_seen, currency_seen)
      select cart.id, $5, least($6, $7, product.on_hand), product.price_cents,
             $8
        from cart, product where product.on_hand > 0
      on conflict (cart_id, product_id) do update
        set quantity = least("cart_lines"."quantity" + $9, $10, (select "stock_levels"."on_hand" from "stock_levels" where "stock_levels"."product_id" = $11)),
            unit_price_cents_seen = excluded.unit_price_cents_seen,
            currency_seen = excluded.currency_seen
      returning quantity)
    select (select id from cart) as "cartId", (select on_hand from product) as "stock",
           (select quantity from before) as "before", (select quantity from line) as "quantity"`,
  readCart: `select "cart_lines"."product_id" as "productId", "products"."name" as "name", "products"."image" as "image", "products"."price_minor" as "unitPriceCents", "cart_lines"."unit_price_cents_seen" as "unitPriceCentsSeen", "cart_lines"."currency_seen" as "currencySeen", "cart_lines"."quantity" as "quantity", "stock_levels"."on_hand" as "stock" from "cart_lines" join "carts" on "carts"."id" = "cart_lines"."cart_id" join "products" on "products"."id" = "cart_lines"."product_id" join "stock_levels" on "stock_levels"."product_id" = "cart_lines"."product_id" where "carts"."id" = $1 order by "cart_lines"."added_at", "cart_lines"."product_id"`,
  guestCart: `select "carts"."id" as "id" from "carts" where "carts"."token_hash" = $1 and ("carts"."expires_at" is null or "carts"."expires_at" > now())`,
  settings: (count) =>
    `select "name", "value" from "shop_settings" where "shop_settings"."name" in (${params(1, count)})`,
  claimKey: `insert into "orders" (number, idempotency_scope, idempotency_key, request_hash, user_id, email, shipping_address, shipping_method, payment_method, status, payment_due_at, subtotal_cents, shipping_cents, total_cents, currency) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 0, 0, 0, $12) on conflict (idempotency_scope, idempotency_key) do nothing returning "orders"."id" as "id"`,
  lockCart: `select "carts"."id" as "id" from "carts" where "carts"."id" = $1 for update`,
  cartLines: `select "cart_lines"."product_id" as "productId", "cart_lines"."quantity" as "quantity" from "cart_lines" where "cart_lines"."cart_id" = $1`,
  lockStock: `select "stock_levels"."variant_id" from "stock_levels" where "stock_levels"."product_id" = any($1::int[]) order by "stock_levels"."product_id", "stock_levels"."variant_id" for update`,
  takeStock: `update "stock_levels" set on_hand = "stock_levels"."on_hand" - asked.quantity from unnest($1::int[], $2::int[]) as asked(product_id, quantity) where "stock_levels"."product_id" = asked.product_id and "stock_levels"."on_hand" >= asked.quantity and exists (select 1 from "products" where "products"."id" = asked.product_id and "products"."archived_at" is null) returning "stock_levels"."product_id" as "productId"`,
  sold: `select "products"."id" as "id", "products"."name" as "name", "products"."price_minor" as "unitPriceCents" from "products" where "products"."id" = any($1::int[])`,
  orderLines: `insert into "order_lines" (order_id, product_id, name, unit_price_cents, quantity, line_total_cents) select $1, line.* from unnest($2::int[], $3::text[], $4::bigint[], $5::int[], $6::bigint[]) as line`,
  emptyCart: `delete from "cart_lines" where "cart_lines"."cart_id" = $1`,
  totals: `update "orders" set subtotal_cents = $1, shipping_cents = $2, total_cents = $3 where "orders"."id" = $4 returning "orders"."number" as "number", "orders"."status" as "status", "orders"."total_cents" as "totalCents"`,
  queueMail: `insert into "mail_queue" (kind, recipient, subject, text_body, html_body, expires_at) values ($1, $2, $3, $4, $5, $6)`,
  claimMail: `update "mail_queue" set locked_until = now() + $1::int * interval '1 second', attempts = "mail_queue"."attempts" + 1, updated_at = now() where "mail_queue"."id" in ( select "mail_queue"."id" from "mail_queue" where "mail_queue"."status" = 'pending' and "mail_queue"."next_attempt_at" <= now() and ("mail_queue"."locked_until" is null or "mail_queue"."locked_until" <= now()) order by "mail_queue"."next_attempt_at", "mail_queue"."id" limit $2 for update skip locked) returning "mail_queue"."id" as "id", "mail_queue"."kind" as "kind", "mail_queue"."recipient" as "to", "mail_queue"."subject" as "subject", "mail_queue"."text_body" as "text", "mail_queue"."html_body" as "html", "mail_queue"."attempts" as "attempts", coalesce("mail_queue"."expires_at" <= now(), false) as "expired"`,
  mailSent: `update "mail_queue" set status = $1, last_error = coalesce($2, "mail_queue"."last_error"), locked_until = null, recipient = null, subject = null, text_body = null, html_body = null, updated_at = now() where "mail_queue"."id" = $3`,
  nextMailDue: `select extract(epoch from min(greatest("mail_queue"."next_attempt_at", coalesce("mail_queue"."locked_until", "mail_queue"."next_attempt_at"))) - now())::float8 as "seconds" from "mail_queue" where "mail_queue"."status" = 'pending'`,
  sweepMail: `delete from "mail_queue" where ("mail_queue"."status" <> $1 and "mail_queue"."updated_at" < now() - interval '7 days')`,
};

function params(first, count) {
  return Array.from({ length: count }, (_, at) => `$${first + at}`).join(", ");
}

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
  const lines = rows.map(([productId, name, image, priceText, seenText, currencySeen, quantity, stock]) => {
    // bigint columns come back as text, as in the shop (cart.server.ts).
    const unitPriceCents = Number(priceText);
    const seen = Number(seenText);
    itemCount += quantity;
    subtotalCents += unitPriceCents * quantity;
    const line = { id: productId, productId, name, image, unitPrice: unitPriceCents / 100, quantity };
    return {
      ...line,
      lineTotal: (unitPriceCents * quantity) / 100,
      stock,
      priceChanged: currencySeen === CURRENCY && unitPriceCents !== seen,
    };
  });
  return { lines, itemCount, subtotal: subtotalCents / 100 };
}

const isWhole = (value, least, most) => Number.isInteger(value) && value >= least && value <= most;

async function addLine(request, response, body) {
  const { productId, quantity } = body ?? {};
  if (!isWhole(productId, 1, 2_147_483_647)) {
    return answer(response, 400, refusal("invalid_field", "productId must be a product's id.", "productId"));
  }
  if (!isWhole(quantity, 1, MOST_IN_ONE_LINE)) {
    return answer(response, 400, refusal("invalid_field", "Quantity must be 1 to 99.", "quantity"));
  }
  const token = CART_COOKIE.exec(request.headers.cookie ?? "")?.[1] ?? randomBytes(32).toString("base64url");
  const values = [hashOf(token), GUEST_CART_DAYS, productId, productId, productId];
  values.push(quantity, MOST_IN_ONE_LINE, CURRENCY, quantity, MOST_IN_ONE_LINE, productId);
  let row;
  try {
    [row] = (await pool.query(SQL.add, values)).rows;
  } catch (error) {
    // Sold out since it was read: least(…, 0) breaks the 1–99 check (23514), as in the shop.
    if (error.code !== "23514") throw error;
  }
  if (row && row.stock === null) {
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
  const lines = new Map();
  for (const line of (await client.query(SQL.cartLines, [cartId])).rows) {
    lines.set(line.productId, (lines.get(line.productId) ?? 0) + line.quantity);
  }
  if (lines.size === 0) throw new Refused(409, refusal("cart_empty", "Your cart is empty."));
  const productIds = [...lines.keys()].sort((a, b) => a - b);
  const sold = await client.query({
    text: SQL.sold,
    values: [productIds],
    rowMode: "array",
  });
  const soldLines = sold.rows
    .map(([productId, name, priceText]) => {
      const unitPriceCents = Number(priceText);
      const quantity = lines.get(productId);
      return { productId, name, unitPriceCents, quantity, lineTotalCents: unitPriceCents * quantity };
    })
    .sort((a, b) => a.productId - b.productId);
  await client.query(SQL.orderLines, [
    orderId,
    soldLines.map((line) => line.productId),
    soldLines.map((line) => line.name),
    soldLines.map((line) => line.unitPriceCents),
    soldLines.map((line) => line.quantity),
    soldLines.map((line) => line.lineTotalCents),
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
  const { rows } = await client.query(SQL.totals, [subtotalCents, shippingCents, totalCents, orderId]);
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
  await client.query(SQL.lockStock, [productIds]);
  const quantities = productIds.map((productId) => lines.get(productId));
  const taken = await client.query(SQL.takeStock, [productIds, quantities]);
  if (taken.rows.length < productIds.length) {
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
